/** The live runner: one Room per session in play, driven by the lifecycle, reaching sockets through a Broadcaster. */
export type { Broadcaster, RoomLog } from './broadcaster.js';
export { systemClock, type Clock, type TimerHandle } from './clock.js';
export { FakeClock } from './fake-clock.js';
export { DbRoomStorage, type WriteFence } from './db-storage.js';
export { MemoryRoomStorage } from './memory-storage.js';
export type { RoomDirectory, RoomPort } from './port.js';
export { RoomManager, type LifecycleSource, type RoomManagerOptions } from './manager.js';
export { Room, RoomClosedError, SessionNotFoundError, type RoomMember } from './room.js';
export { FencedError } from './storage.js';
export type { AnswerWrite, CommitBatch, RoomSession, RoomStorage, SnapshotWrite } from './storage.js';
export { GroupCommit } from './group-commit.js';
export { SharedCommits } from './shared-commits.js';
export { type RoomSummary, RECONNECT_WINDOW_MS } from './live-summary.js';

/** The live runner: one Room per session in play, driven by the lifecycle, reaching sockets through a Broadcaster. */
export type { Broadcaster, RoomLog } from './broadcaster.js';
export { systemClock, type Clock, type TimerHandle } from './clock.js';
export { FakeClock } from './fake-clock.js';
export { DbRoomStorage, type WriteFence } from './db-storage.js';
export { MemoryRoomStorage } from './memory-storage.js';
export type { RoomDirectory, RoomPort } from './port.js';
export { RoomManager, type LifecycleSource, type RoomManagerOptions } from './manager.js';
export { Room, RoomClosedError, SessionNotFoundError, type RoomMember } from './room.js';
export { FencedError, type AnswerWrite, type CommitWrite, type RoomSession, type RoomStorage } from './storage.js';

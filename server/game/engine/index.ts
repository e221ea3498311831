/** The pure game engine: see docs/GAME.md for phases, timing, scoring and persistence. */
export type {
  AnswerRecord,
  BroadcastTarget,
  Effect,
  EngineEvent,
  EngineState,
  LiveSnapshot,
  Phase,
  Program,
  ProgramItem,
  ProgramQuestion,
  ReduceResult,
  ScoreRecord,
  ScoreWrite,
} from './types.js';
export { reduce, pendingWakeAt } from './reduce.js';
export {
  createEngineState,
  resumeEngine,
  parseLiveSnapshot,
  type CreateEngineInput,
  type ResumeInput,
  type StoredAnswer,
  type StoredScore,
} from './resume.js';
export { toLiveSnapshot } from './snapshot.js';
export { DROP_GRACE_MS, RESUME_GRACE_MS, onPresenceRoster, presenceRoster } from './presence.js';
export { audienceView, playerView, adminView, adminSessionInfo, toQuestionView } from './views.js';
export { pointsForCorrectAnswer, compareStandings, LEADERBOARD_SIZE } from './scoring.js';
export { buildLeaderboard, placeOf, placesOf, rankEveryone, rerank, topOf } from './standings.js';
export type { Presence, Standings } from './state-parts.js';
export { REVEAL_MS, SLIDE_MS, NO_MEDIA_MS, TICK_MS, DEFAULT_MEDIA_DURATION_SECONDS, mediaRunMs } from './timing.js';
export { PMap } from './pmap.js';
export { PROGRESS_INTERVAL_MS, distributionOf, insightOnConnect, presenceMessage, progressMessage } from './insight.js';
export { withPlayerDelays } from './answers.js';

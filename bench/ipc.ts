/**
 * Messages between the bench runner and the generator process, and the figures the generator
 * reports. The runner owns the server process, so it answers the generator's probes (RSS and CPU
 * from /proc, event-loop delay from the server's probe).
 */
import type { Distribution } from './stats.js';
import type { EventLoopDelay, ProbeRequest } from './probe.js';

/** What the generator asks of a server reading (the runner relays it to the server's probe). */
export type ProbeOptions = Omit<ProbeRequest, 'type' | 'id'>;

/** `cluster`: three Marquee instances on PostgreSQL + Redis, phones spread over them (bench/cluster-target.ts). */
export type TargetName = 'marquee' | 'baseline' | 'cluster';

export interface GeneratorConfig {
  target: TargetName;
  baseUrl: string;
  adminPassword: string;
  players: number;
  sessions: number;
  rounds: number;
  /**
   * Rounds played first and not measured (default 0: the first question after the phones connect
   * is the one the audience sees, so it is measured, and the server must warm itself up).
   */
  warmupRounds: number;
  /** Each phone answers at a uniformly random moment within this window after its question arrives. */
  answerWindowMs: number;
  /** A round that has not delivered every result this long after its Next is given up (answers lost). */
  roundTimeoutMs: number;
  /** Quiet time after connecting and between rounds, so one phase's tail does not bleed into the next. */
  settleMs: number;
  registerConcurrency: number;
  connectConcurrency: number;
  /** Sessions set up (created, filled, started) at once. */
  setupConcurrency: number;
  /**
   * The operators' Next presses of one round are spread evenly over this long (0: all in the
   * same tick). The `many` scenario staggers them over a second, as a chain's operators would.
   */
  staggerMs: number;
  /** With every phone connected and nothing happening, the server's CPU is read over this long (0: not measured). */
  idleMs: number;
  seed: number;
  runTag: string;
  /** Several instances: phone i opens its socket at socketUrls[i % n] (admin and display at baseUrl). */
  socketUrls?: string[];
  /** Several instances: after the measured rounds, the owner is killed mid-question (failover.ts). */
  failover?: boolean;
}

/** Generator → runner. */
export type GeneratorMessage =
  | ({ type: 'probe'; id: number } & ProbeOptions)
  /** SIGKILL the instance owning the first of these sessions (the failover step). */
  | { type: 'kill-owner'; id: number; sessionIds: string[] }
  | { type: 'progress'; text: string }
  | { type: 'result'; result: TargetResult }
  | { type: 'failed'; message: string };

/** Runner → generator. */
export type RunnerMessage =
  | { type: 'run'; config: GeneratorConfig }
  | { type: 'probe'; id: number; reading: ServerReading }
  /** The owner was killed: its index in the cluster's socket URLs (-1: failed, see `error`). */
  | { type: 'killed'; id: number; instanceIndex: number; instanceId: string; error?: string };

/** The failover step (cluster only): times from the SIGKILL of the session's owner, in ms. */
export interface FailoverFigures {
  killedInstance: string;
  phones: number;
  /** Phones whose socket was on the killed instance. */
  phonesOnKilled: number;
  /** Phones holding an `answer_accepted` at the kill. */
  confirmedBeforeKill: number;
  /** Until every session the killed instance owned has a lease held by another (the runner polls Redis). Null: never. */
  leaseMs: number | null;
  /** Until the first `session_state` of the question from the new owner reached a phone (it announced itself). Null: none. */
  firstStateMs: number | null;
  /** Until the first `answer_accepted` for an answer sent after the kill. Null: none. */
  firstAcceptedMs: number | null;
  /** Until each phone of the killed instance had a socket open again (through another instance). */
  reopenMs: Distribution;
  /** Until each phone of the killed instance was back on the question through another instance (null: not all were). */
  backMs: Distribution;
  back99Ms: number | null;
  back100Ms: number | null;
  phonesNotBack: number;
  /** Phones that held an `answer_accepted` and were then shown the question unanswered or with another choice. */
  confirmedLost: number;
  /** Phones with their `answer_result` once the question closed. */
  results: number;
  errorsReceived: number;
  /** The `error` messages phones got, by text. */
  errorMessages: Record<string, number>;
}

export interface ServerReading {
  rssKb: number;
  heapUsedKb: number;
  cpuSeconds: number;
  /** Of `cpuSeconds`, the main thread's (the rest: V8's helper threads and workers). */
  mainThreadCpuSeconds: number;
  /** The main thread's time runnable but waiting for a core (NaN: not known on this kernel). */
  mainThreadWaitSeconds: number;
  writeSyscalls: number;
  /** Event-loop delay since the previous reset. */
  eventLoop: EventLoopDelay;
}

export interface RoundFigures {
  /** This round's own distributions: the first measured round is compared with the others. */
  fanOutMs: Distribution;
  resultMs: Distribution;
  fannedOut: boolean;
  resultsComplete: boolean;
  serverCpuSeconds: number;
  /** Of `serverCpuSeconds`, the main thread's. */
  serverMainThreadCpuSeconds: number;
  /** How long the main thread was runnable but had no core (the machine's share of the round's latencies). */
  serverMainThreadWaitSeconds: number;
  /** Wall time of the window `serverCpuSeconds` is taken over: Next pressed to every result in. */
  wallSeconds: number;
  /** The server's write syscalls during the round, per phone that got the question. */
  writeSyscallsPerPhone: number;
  generatorCpuSeconds: number;
  eventLoopDuringFanOut: EventLoopDelay;
  eventLoopDuringAnswers: EventLoopDelay;
  answersSent: number;
  answersLost: number;
}

export interface TargetResult {
  target: TargetName;
  players: number;
  sessions: number;
  rounds: number;
  /** Every session created, filled and started, then every phone registered (the chain's setup before the show). */
  setupSeconds: number;
  sessionsSetupSeconds: number;
  /** The server's CPU seconds over that setup (robust to a loaded machine, where wall time is mostly waiting). */
  setupServerCpuSeconds: number;
  /** The server's CPU with every phone connected and no game moving, % of one core (null: not measured). */
  idleCpuPercent: number | null;
  /**
   * GET /api/admin/live with every phone connected and nothing moving, after the idle window:
   * LIVE_OVERVIEW_REQUESTS one after another (ms; null: the target has no such endpoint).
   */
  liveOverviewMs: Distribution | null;
  /** The games the overview listed (every live session, when it works). */
  liveOverviewGames: number | null;
  /** The server's RSS growth from before the sessions were set up to all phones connected, per session. */
  rssPerSessionKb: number;
  /** Registration of every phone through the API, then every socket open with its first state. */
  registerSeconds: number;
  connectSeconds: number;
  registerConnectSeconds: number;
  connectFailures: number;
  rssBeforeConnectKb: number;
  rssConnectedKb: number;
  rssPerPlayerKb: number;
  /** The same for the V8 heap in use: RSS can hide sockets in pages freed after registration. */
  heapPerPlayerKb: number;
  /** Admin's Next sent → the question's `session_state` at each phone (ms). */
  fanOutMs: Distribution;
  /** The last answer of the session sent (the question can end) → each phone's `answer_result` (ms). */
  resultMs: Distribution;
  /** The last answer sent → `question_end` at the session's display (ms). */
  questionEndAtDisplayMs: Distribution;
  /** A phone's answer sent → its `answer_accepted` (ms). */
  answerAckMs: Distribution;
  answersSent: number;
  answersLost: number;
  /** Connected phones that did not receive a round's question. */
  questionsMissed: number;
  errorsReceived: number;
  phonesDropped: number;
  roundsCompleted: number;
  serverCpuSecondsPerRound: number;
  /** Of `serverCpuSecondsPerRound`, the main thread's. */
  serverMainThreadCpuSecondsPerRound: number;
  /** The main thread's wait for a core, per round. */
  serverMainThreadWaitSecondsPerRound: number;
  writeSyscallsPerPhonePerRound: number;
  generatorCpuSecondsPerRound: number;
  /**
   * Mean wall time of a round's CPU window. The server's CPU over it, in cores, says how close to
   * saturation the round ran: near 1, answers and presses queue behind each other (and the load
   * generator, on the same machine, needs most of the other core).
   */
  wallSecondsPerRound: number;
  /** Worst round's p99 of the server's event-loop delay during the answer burst (ms). */
  eventLoopP99Ms: number;
  /** Worst round's longest event-loop delay, Next to the last result: fan-out and answers (ms). */
  eventLoopMaxMs: number;
  perRound: RoundFigures[];
  /** Cluster only: Redis commands per measured round, by command (INFO commandstats of its own Redis). */
  redisCommandsPerRound?: Record<string, number>;
  /**
   * Cluster only, per measured round: frames the instances received from the owner (each one a
   * pub/sub delivery by Redis), those no socket of the receiving instance needed (and of these,
   * the frames for one player or one socket), and the bytes Redis sent to its clients.
   */
  relayPerRound?: { framesReceived: number; framesUnused: number; personalFramesUnused: number; redisOutputKb: number };
  /** Cluster only: the failover step after the measured rounds. */
  failover?: FailoverFigures;
}

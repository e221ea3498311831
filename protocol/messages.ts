/**
 * The real-time protocol at /ws: every frame is one JSON object with a `type`.
 * Server → client messages are plain TypeScript types (the server builds them); client → server
 * messages are zod schemas, because they come from the outside and are validated on arrival.
 * Close codes, error codes and frame limits live here so the server and the web app agree.
 */
import type { PublicSessionInfo } from './api.js';
import { z } from 'zod';
import type { AdminSessionState, AudienceSessionState, LeaderboardEntry, PlayerSessionState } from './views.js';

// ---------------------------------------------------------------------------------------------
// Connection

export const CLIENT_ROLES = ['admin', 'display', 'player'] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

/** Query string of `/ws?…`. Players prove who they are with the token, not the id. */
export const connectQuerySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('admin'), sessionId: z.string().min(1), token: z.string().min(1) }),
  z.object({ type: z.literal('display'), sessionId: z.string().min(1) }),
  z.object({
    type: z.literal('player'),
    sessionId: z.string().min(1),
    playerId: z.string().min(1),
    playerToken: z.string().min(1),
  }),
]);
export type ConnectQuery = z.infer<typeof connectQuerySchema>;

/** Close codes sent with a human-readable reason. 4xxx mirror the HTTP statuses they resemble. */
/**
 * A client may send this many messages per second on average, with bursts of MAX_CLIENT_MESSAGE_BURST;
 * a phone answers once a question and an admin clicks, so only a runaway or hostile client exceeds it.
 */
export const MAX_CLIENT_MESSAGES_PER_SECOND = 5;
export const MAX_CLIENT_MESSAGE_BURST = 20;

export const CLOSE_CODES = {
  /** Missing or malformed query parameters. */
  badRequest: 4400,
  /** Invalid or expired admin token, or a player token that does not match the player. */
  unauthorized: 4401,
  /** Unknown session or player. */
  notFound: 4404,
  /** The host removed this player from the session (DESIGN §15): the phone says so and stays out. */
  removed: 4403,
  /** The session was deleted while the socket was open. */
  sessionGone: 4410,
  /** The socket's send buffer stayed over its bound: the client is not reading fast enough. */
  slowConsumer: 4429,
  /** The client sent messages faster than any person taps (see MAX_CLIENT_MESSAGES_PER_SECOND). */
  tooManyMessages: 4408,
  /** RFC 6455 "message too big": an incoming frame exceeded MAX_CLIENT_FRAME_BYTES. */
  messageTooBig: 1009,
  /** The server is shutting down; clients should reconnect. */
  goingAway: 1001,
} as const;
export type CloseCode = (typeof CLOSE_CODES)[keyof typeof CLOSE_CODES];

/** Incoming frames larger than this are refused (a valid client message is well under 1 KB). */
export const MAX_CLIENT_FRAME_BYTES = 16 * 1024;

// ---------------------------------------------------------------------------------------------
// Errors: namespaced, stable codes; `message` is for humans.

export const ERROR_CODES = {
  invalidJson: 'message/invalid_json',
  unknownType: 'message/unknown_type',
  invalidMessage: 'message/invalid',
  forbidden: 'auth/forbidden',
  notLive: 'session/not_live',
  noItems: 'session/no_items',
  noQuestion: 'answer/no_question',
  wrongQuestion: 'answer/wrong_question',
  duplicateAnswer: 'answer/duplicate',
  lateAnswer: 'answer/late',
  invalidChoice: 'answer/invalid_choice',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

// ---------------------------------------------------------------------------------------------
// Server → client

export interface TimerTickMessage {
  type: 'timer_tick';
  questionId: string;
  /** Whole seconds left, rounded up. */
  timeRemaining: number;
  serverTime: number;
  endsAt: number;
}

export interface QuestionEndMessage {
  type: 'question_end';
  questionId: string;
  correctIndex: number;
  /** Answers per choice, [A, B, C, D]: the room's split for the reveal. */
  distribution: number[];
}

export interface LeaderboardUpdateMessage {
  type: 'leaderboard_update';
  /** Top 10, highest first. */
  leaderboard: LeaderboardEntry[];
}

/** Sent to one player, after the question closes, for each asking they answered. */
export interface AnswerResultMessage {
  type: 'answer_result';
  playerId: string;
  questionId: string;
  isCorrect: boolean;
  pointsEarned: number;
  newScore: number;
  /** 1-based place among everyone ranked; players with the same total share a place (1, 2, 2, 4). */
  rank: number;
  /** How many players are ranked (everyone who has answered in this session). */
  players: number;
  /** Points still needed to reach the next place up; null for a player in first place. */
  pointsToNextPlace: number | null;
}

/**
 * How many phones have answered the open question, for admins and displays only (never phones):
 * at most 4 a second per session while the question runs, and once when it ends (DESIGN §10).
 */
export interface AnswerProgressMessage {
  type: 'answer_progress';
  questionId: string;
  answered: number;
  /** Phones in the game now (players with an open socket). */
  players: number;
}

/** The display's lobby lists this many of the latest players to join (DESIGN §17). */
export const LOBBY_RECENT_NAMES = 8;

/**
 * Who is in the room, for admins and displays (the lobby), never phones: sent when it changes,
 * at most 4 a second per session.
 */
export interface PresenceMessage {
  type: 'presence';
  /** Phones in the game now (players with an open socket). */
  players: number;
  /** Display screens connected. */
  displays: number;
  /** Players who have joined this game (connected at least once), for the lobby's "{n} players joined". */
  joined?: number;
  /** The latest players to join, newest first, at most LOBBY_RECENT_NAMES. */
  recentNames?: string[];
}

/** Sent to the answering player (all their sockets) when an answer is taken: the lock is real. */
export interface AnswerAcceptedMessage {
  type: 'answer_accepted';
  questionId: string;
  selectedIndex: number;
  /** The phone's id for the pick (DESIGN §14); absent when the phone sent none (older clients). */
  answerId?: string;
}

/**
 * The server opens a datagram path to this phone (docs/REALTIME.md "The datagram path"): a WebRTC
 * data channel, unordered and without retransmissions, offered in `sdp` (without the server's
 * candidates: they follow in `datagram_candidates` once the reply is taken). The phone answers
 * with `datagram_reply`. Sent at most once per player while the path lives, only to phones whose
 * reported round trip is slow (ping's `rttMs`).
 */
export interface DatagramOfferMessage {
  type: 'datagram_offer';
  sdp: string;
}

/**
 * The server's candidates for the offered path (each an SDP `candidate:` attribute, for the media
 * section `mid`), sent once the phone's `datagram_reply` is taken. Only then can the phone's
 * connectivity checks reach the server: a handshake that began while the server was still taking
 * the reply failed (docs/REALTIME.md "The datagram path").
 */
export interface DatagramCandidatesMessage {
  type: 'datagram_candidates';
  mid: string;
  candidates: string[];
}

export interface ErrorMessage {
  type: 'error';
  code: ErrorCode;
  message: string;
  /** On answer-related errors: which question and which pick were refused (DESIGN §14). */
  questionId?: string;
  answerId?: string;
}

/** Reply to a client's `ping`: the phone measures its round trip and the server's clock with it. */
export interface PongMessage {
  type: 'pong';
  /** The client's `ping.id`, echoed. */
  id: number;
  serverTime: number;
}

export type SessionStateMessage = AudienceSessionState | PlayerSessionState | AdminSessionState;

/** The session's title, theme or settings changed: screens redraw without a reload. */
export interface SessionInfoMessage {
  type: 'session_info';
  session: PublicSessionInfo;
}

/** The prize draw's winners for the big screen (DESIGN §11): names only, never emails. Displays only. */
export interface WinnersMessage {
  type: 'winners';
  prize: string;
  names: string[];
}

/** The close reason of a kicked player's sockets (DESIGN §15). */
export const REMOVED_BY_HOST = 'Removed by the host';

/**
 * Admins only: registrations for this session were refused by the per-address limit (DESIGN §15),
 * the sign of a bot or a script. Live Controls shows it as one line.
 */
export interface RegistrationBurstMessage {
  type: 'registration_burst';
  /** Registrations refused in the last minute. */
  refused: number;
  /** Distinct addresses refused in the last minute. */
  addresses: number;
}

export type ServerMessage =
  | SessionStateMessage
  | RegistrationBurstMessage
  | SessionInfoMessage
  | WinnersMessage
  | TimerTickMessage
  | QuestionEndMessage
  | LeaderboardUpdateMessage
  | AnswerResultMessage
  | AnswerAcceptedMessage
  | AnswerProgressMessage
  | PresenceMessage
  | PongMessage
  | DatagramOfferMessage
  | DatagramCandidatesMessage
  | ErrorMessage;

export type ServerMessageType = ServerMessage['type'];

export function errorMessage(code: ErrorCode, message: string, about?: { questionId: string; answerId?: string }): ErrorMessage {
  if (!about) return { type: 'error', code, message };
  return about.answerId === undefined
    ? { type: 'error', code, message, questionId: about.questionId }
    : { type: 'error', code, message, questionId: about.questionId, answerId: about.answerId };
}

/** A pick's id: long enough for a random UUID, short enough to stay well under the frame bound. */
export const MAX_ANSWER_ID_LENGTH = 64;
/** A reaction longer than this is no reaction to a question (the longest time limit is far below). */
export const MAX_REACTION_MS = 3_600_000;

// ---------------------------------------------------------------------------------------------
// Client → server

export const submitAnswerSchema = z.object({
  type: z.literal('submit_answer'),
  questionId: z.string().min(1, 'questionId is required'),
  selectedIndex: z
    .number({ error: 'selectedIndex must be a number from 0 to 3' })
    .int('selectedIndex must be a whole number from 0 to 3')
    .min(0, 'selectedIndex must be from 0 to 3')
    .max(3, 'selectedIndex must be from 0 to 3'),
  // DESIGN §14: optional on the wire (older clients), always sent by ours.
  answerId: z.string().min(1, 'answerId must not be empty').max(MAX_ANSWER_ID_LENGTH, `answerId must be at most ${MAX_ANSWER_ID_LENGTH} characters`).optional(),
  reactionMs: z
    .number({ error: 'reactionMs must be a number of milliseconds' })
    .int('reactionMs must be whole milliseconds')
    .min(0, 'reactionMs must not be negative')
    .max(MAX_REACTION_MS, `reactionMs must be at most ${MAX_REACTION_MS}`)
    .optional(),
});

/** A round trip longer than this is no round trip (the phone's report is bounded, not trusted). */
export const MAX_REPORTED_RTT_MS = 60_000;
/** An SDP answer from a browser is 400–1,500 characters; the frame bound caps everything anyway. */
export const MAX_SDP_CHARS = 8_000;

/**
 * A phone measures its round trip (and the server's clock) with this; any role may send it. A
 * phone adds `rttMs`, the worst round trip it measured lately: a slow phone is offered the
 * datagram path (docs/REALTIME.md).
 */
export const pingSchema = z.object({
  type: z.literal('ping'),
  id: z.number({ error: 'id must be a number' }).int('id must be a whole number').min(0).max(Number.MAX_SAFE_INTEGER),
  rttMs: z
    .number({ error: 'rttMs must be a number of milliseconds' })
    .int('rttMs must be whole milliseconds')
    .min(0, 'rttMs must not be negative')
    .max(MAX_REPORTED_RTT_MS, `rttMs must be at most ${MAX_REPORTED_RTT_MS}`)
    .optional(),
});

/** The phone's answer to `datagram_offer`: its SDP (candidates optional: the server learns the phone's address from its checks). */
export const datagramReplySchema = z.object({
  type: z.literal('datagram_reply'),
  sdp: z.string({ error: 'sdp must be a string' }).min(1, 'sdp is required').max(MAX_SDP_CHARS, `sdp must be at most ${MAX_SDP_CHARS} characters`),
});

/**
 * The phone has the question (sent on the datagram path, in answer to the question's state
 * there): the server stops repeating it to this phone.
 */
export const questionSeenSchema = z.object({
  type: z.literal('question_seen'),
  questionId: z.string().min(1, 'questionId is required'),
});

export const adminNextQuestionSchema = z.object({ type: z.literal('admin_next_question') });
export const adminPauseSchema = z.object({ type: z.literal('admin_pause') });
export const adminToggleAutorotateSchema = z.object({
  type: z.literal('admin_toggle_autorotate'),
  autoRotate: z.boolean({ error: 'autoRotate must be true or false' }),
});

export const clientMessageSchema = z.discriminatedUnion('type', [
  submitAnswerSchema,
  adminNextQuestionSchema,
  adminPauseSchema,
  adminToggleAutorotateSchema,
  pingSchema,
  datagramReplySchema,
  questionSeenSchema,
]);

export type SubmitAnswerMessage = z.infer<typeof submitAnswerSchema>;
export type AdminNextQuestionMessage = z.infer<typeof adminNextQuestionSchema>;
export type AdminPauseMessage = z.infer<typeof adminPauseSchema>;
export type AdminToggleAutorotateMessage = z.infer<typeof adminToggleAutorotateSchema>;
export type PingMessage = z.infer<typeof pingSchema>;
export type DatagramReplyMessage = z.infer<typeof datagramReplySchema>;
export type QuestionSeenMessage = z.infer<typeof questionSeenSchema>;

/**
 * The body of `POST` PLAYER_ANSWER_PATH (api.ts): a pick sent over plain HTTP by a phone whose
 * socket is down (DESIGN §14, docs/REALTIME.md "A pick over HTTP"), the socket's `submit_answer`
 * message with the player's credentials. 202 = handed to the game; the acceptance comes on the
 * player's sockets.
 */
export interface PlayerAnswerBody {
  sessionId: string;
  playerId: string;
  playerToken: string;
  answer: SubmitAnswerMessage;
}
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type ClientMessageType = ClientMessage['type'];

/** Which roles may send which message; anything else is answered with `auth/forbidden`. */
export const MESSAGE_ROLES: Record<ClientMessageType, readonly ClientRole[]> = {
  submit_answer: ['player'],
  admin_next_question: ['admin'],
  admin_pause: ['admin'],
  admin_toggle_autorotate: ['admin'],
  ping: ['admin', 'display', 'player'],
  datagram_reply: ['player'],
  question_seen: ['player'],
};

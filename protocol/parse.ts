/**
 * Turns one incoming text frame into a validated client message, or into the `error` message
 * to send back. Never throws: bad input from a phone must not cost the socket or the server.
 */
import {
  type ClientMessage,
  type ClientRole,
  type ErrorMessage,
  ERROR_CODES,
  MAX_ANSWER_ID_LENGTH,
  MAX_REACTION_MS,
  MESSAGE_ROLES,
  type SubmitAnswerMessage,
  clientMessageSchema,
  errorMessage,
} from './messages.js';
import { PATH_PICK_TAG, unpackPathPick } from './path-pick.js';

export type ParseResult = { ok: true; message: ClientMessage } | { ok: false; error: ErrorMessage };

const KNOWN_TYPES = Object.keys(MESSAGE_ROLES);

export function parseClientMessage(raw: string, role: ClientRole): ParseResult {
  const data = jsonOf(raw);
  return data === NOT_JSON ? notJson() : validated(data, role);
}

/**
 * A message that came on a player's datagram path: a packed pick (`packPathPick`), its question
 * named by the start of its id and expanded with `questionIdFor` (the question the server shows,
 * or the reference itself when it names another), or any client message as on the socket.
 */
export function parseDatagramMessage(raw: string, role: ClientRole, questionIdFor: (reference: string) => string): ParseResult {
  const data = jsonOf(raw);
  if (data === NOT_JSON) return notJson();
  if (!Array.isArray(data)) return validated(data, role);
  const pick = unpackPathPick(data);
  if (!pick) return fail(ERROR_CODES.invalidMessage, `A packed pick is [${JSON.stringify(PATH_PICK_TAG)}, question, selectedIndex, answerId, reactionMs]`);
  return validated({ ...pick, questionId: questionIdFor(pick.questionId) }, role);
}

const NOT_JSON = Symbol('not JSON');

function jsonOf(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function notJson(): ParseResult {
  return fail(ERROR_CODES.invalidJson, 'Message is not valid JSON');
}

function validated(data: unknown, role: ClientRole): ParseResult {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail(ERROR_CODES.invalidMessage, 'Message must be a JSON object with a "type"');
  }
  const type = (data as { type?: unknown }).type;
  if (typeof type !== 'string' || !KNOWN_TYPES.includes(type)) {
    return fail(ERROR_CODES.unknownType, `Unknown message type: ${typeof type === 'string' ? type : String(type)}`);
  }
  // Checked before the body so a player probing admin commands learns nothing about their shape.
  const allowed = MESSAGE_ROLES[type as ClientMessage['type']];
  if (!allowed.includes(role)) {
    return fail(ERROR_CODES.forbidden, `A ${role} may not send ${type}`);
  }
  // The pick, thousands a second in a full house: checked by hand when well formed; zod still
  // words what is wrong with any other (parse.test.ts holds the two to the same verdicts).
  if (type === 'submit_answer') {
    const pick = wellFormedPick(data as Record<string, unknown>);
    if (pick) return { ok: true, message: pick };
  }
  const parsed = clientMessageSchema.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    return fail(ERROR_CODES.invalidMessage, `Invalid ${type}: ${where}${first?.message ?? 'invalid message'}`);
  }
  return { ok: true, message: parsed.data };
}

const wholeIn = (value: unknown, min: number, max: number): value is number => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/**
 * A `submit_answer` that `submitAnswerSchema` accepts, as it would give it back (only its own
 * fields); null for anything else, left to the schema to explain.
 */
export function wellFormedPick(data: Record<string, unknown>): SubmitAnswerMessage | null {
  const { questionId, selectedIndex, answerId, reactionMs } = data;
  if (typeof questionId !== 'string' || questionId.length === 0 || !wholeIn(selectedIndex, 0, 3)) return null;
  const pick: SubmitAnswerMessage = { type: 'submit_answer', questionId, selectedIndex };
  if (answerId !== undefined) {
    if (typeof answerId !== 'string' || answerId.length === 0 || answerId.length > MAX_ANSWER_ID_LENGTH) return null;
    pick.answerId = answerId;
  }
  if (reactionMs !== undefined) {
    if (!wholeIn(reactionMs, 0, MAX_REACTION_MS)) return null;
    pick.reactionMs = reactionMs;
  }
  return pick;
}

function fail(code: ErrorMessage['code'], message: string): ParseResult {
  return { ok: false, error: errorMessage(code, message) };
}

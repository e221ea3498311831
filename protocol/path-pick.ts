/**
 * Packed picks for the datagram path. No zod here: the phone bundle imports this module.
 */
import type { SubmitAnswerMessage } from './messages.js';

/**
 * A pick on the datagram path is packed small: `["p", question, selectedIndex, answerId,
 * reactionMs]`, the question named by the first QUESTION_REFERENCE_CHARS characters of its id.
 * Repeated every 250 ms into a loss of signal, every byte stays in SCTP's congestion window until
 * its backed-off resend timer fires; about a ping's size, the picks sent into a 4 s loss fit in one
 * packet's worth and the first one after it leaves at once (docs/PERFORMANCE.md, session 38).
 */
export const PATH_PICK_TAG = 'p';
export const QUESTION_REFERENCE_CHARS = 8;

export function packPathPick(pick: SubmitAnswerMessage): string {
  return JSON.stringify([PATH_PICK_TAG, pick.questionId.slice(0, QUESTION_REFERENCE_CHARS), pick.selectedIndex, pick.answerId ?? null, pick.reactionMs ?? null]);
}

/**
 * A packed pick back as the fields of `submit_answer`, its question still the reference; null when
 * `data` is not shaped as one. The fields are checked by submitAnswerSchema after expansion.
 */
export function unpackPathPick(data: unknown[]): { type: 'submit_answer'; questionId: string; selectedIndex: unknown; answerId?: unknown; reactionMs?: unknown } | null {
  if (data.length !== 5) return null;
  const [tag, reference, selectedIndex, answerId, reactionMs] = data;
  if (tag !== PATH_PICK_TAG || typeof reference !== 'string' || reference.length === 0 || reference.length > QUESTION_REFERENCE_CHARS) return null;
  return {
    type: 'submit_answer',
    questionId: reference,
    selectedIndex,
    ...(answerId === null ? {} : { answerId }),
    ...(reactionMs === null ? {} : { reactionMs }),
  };
}

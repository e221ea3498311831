/**
 * The phone's big moments in words (DESIGN §17): joining, the pick's delivery, time's up, the
 * result and the final place, and what the screen reader hears of them. Pure, so the exact
 * texts are unit-tested; the components only place them.
 */
import type { SocketStatus } from '../common/realtime/useSessionSocket';
import type { AnswerStatus } from './answer-sender';
import { outcomeText, type PlayerGameState } from './playerGameState';

/** "You're in, Ana!" after joining, until the game begins. */
export const joinedText = (name: string) => `You're in, ${name}!`;

/** The reveal came and this phone never picked. */
export const TIMES_UP = "Time's up!";

/** Where a pick stands on its way to the server (the states the answer sender reports). */
export type AnswerDelivery = 'sending' | 'saved offline' | 'counted' | 'too late';

export const DELIVERY_TEXT: Record<AnswerDelivery, string> = {
  sending: 'Sending your answer...',
  'saved offline': "Saved — it will be sent when you're back online",
  counted: 'Answer submitted! Waiting for results...', // SPEC's player screen, exact
  'too late': 'Too late: time was up before your answer arrived',
};

/**
 * How the current pick stands, from the game state and the socket: not confirmed and the socket
 * down is "saved offline", never "submitted" (the pick is on this phone only).
 */
export function deliveryOf(state: PlayerGameState, status: SocketStatus, sender: AnswerStatus = 'idle'): AnswerDelivery | null {
  if (!state.answered) return null;
  // The answer sender (DESIGN §14) knows best while a pick is on its way: an unanswered ack
  // means a dead socket even while the browser still calls it open.
  const fromSender = SENDER_DELIVERY[sender];
  if (fromSender) return fromSender;
  if (state.pending) return status === 'open' ? 'sending' : 'saved offline';
  return 'counted';
}

const SENDER_DELIVERY: Record<AnswerStatus, AnswerDelivery | null> = {
  idle: null,
  sending: 'sending',
  offline: 'saved offline',
  counted: 'counted',
  late: 'too late',
};

/** "You finished #2 of 14" when the session ends. */
export const finishedText = (place: { rank: number; players: number }) => `You finished #${place.rank} of ${place.players}`;

/** The line under the answers: the result once known, else the pick's delivery, else time's up. */
export function answerStatusText(state: PlayerGameState, delivery: AnswerDelivery | null): string {
  const ended = state.live.phase !== 'question';
  if (state.result) return outcomeText(state.outcome);
  if (ended && !state.answered) return TIMES_UP;
  if (delivery) return DELIVERY_TEXT[delivery];
  if (ended) return outcomeText(state.outcome);
  return '';
}

/** Seconds left when the screen reader is told once (DESIGN §17: "10 seconds left"). */
export const ANNOUNCE_SECONDS_LEFT = 10;
export const ANNOUNCE_LOCKED = 'Your answer is locked in';
export const secondsLeftText = (seconds: number) => `${seconds} seconds left`;

import { useEffect, useRef, useState } from 'react';
import { questionNumberText } from '../common/format';
import { ANNOUNCE_LOCKED, ANNOUNCE_SECONDS_LEFT, answerStatusText, secondsLeftText, type AnswerDelivery } from './phoneMoments';
import type { PlayerGameState } from './playerGameState';

/**
 * The phone's one polite live region (DESIGN §17): a screen reader hears the question, "10
 * seconds left", that the answer is locked, and the result, each once, without stealing focus.
 * Worded apart from the visible lines ("Result: Incorrect"), so a sighted reader's text search
 * never finds the same line twice.
 * Each moment is keyed by the asking, so a re-render or a repeated state says nothing again.
 */
export function PhoneAnnouncer({ state, countdown, delivery }: { state: PlayerGameState; countdown: number | null; delivery: AnswerDelivery | null }) {
  const [message, setMessage] = useState('');
  const said = useRef(new Set<string>());
  const { live } = state;
  const asking = live.asking;
  const inQuestion = live.phase === 'question' && live.question !== null;

  const say = (key: string, text: string) => {
    if (said.current.has(key)) return;
    said.current.add(key);
    setMessage(text);
  };

  useEffect(() => {
    if (!inQuestion || !live.question) return;
    const number = live.questionNumber ? `${questionNumberText(live.questionNumber)}: ` : 'New question: ';
    say(`question ${asking}`, `${number}${live.question.text}`);
  }, [inQuestion, asking, live.question, live.questionNumber]);

  useEffect(() => {
    if (inQuestion && countdown === ANNOUNCE_SECONDS_LEFT && !state.answered) say(`seconds ${asking}`, secondsLeftText(countdown));
  }, [inQuestion, countdown, asking, state.answered]);

  useEffect(() => {
    if (delivery === 'counted' && inQuestion) say(`locked ${asking}`, ANNOUNCE_LOCKED);
  }, [delivery, inQuestion, asking]);

  // The result: the points once known, or time's up for a phone that never picked.
  useEffect(() => {
    if (state.result || (live.phase === 'reveal' && !state.answered)) say(`result ${asking}`, `Result: ${answerStatusText(state, delivery)}`);
  }, [live.phase, state, delivery, asking]);

  return (
    <p className="sr-only" role="status" aria-live="polite" data-testid="phone-announcer">
      {message}
    </p>
  );
}

import { useEffect, useRef } from 'react';
import { Check, X } from 'lucide-react';
import { questionNumberText } from '../common/format';
import { MediaFrame } from '../common/realtime/MediaFrame';
import { phoneSource } from '../common/realtime/mediaRotation';
import { answerStatusText, type AnswerDelivery } from './phoneMoments';
import { canPick, type PlayerGameState } from './playerGameState';
import { PlayerPlace } from './PlayerPlace';

const letter = (index: number) => String.fromCharCode(65 + index);

/**
 * The question, its media and four big lettered buttons. One pick locks them all; the pick then
 * waits for its result, which colours it (success or destructive, with an icon) and dims the rest.
 */
export function PlayerQuestion({ state, delivery, onPick }: { state: PlayerGameState; delivery: AnswerDelivery | null; onPick: (index: number) => void }) {
  const question = state.live.question!;
  const open = canPick(state);
  const { result, selectedIndex, answered } = state;
  const ended = state.live.phase !== 'question';
  // At the reveal the right choice is marked for everyone who did not pick it (DESIGN §17).
  const correctIndex = ended ? state.live.correctIndex : null;
  const timesUp = ended && !answered;
  // The outcome and the place sit below four buttons: on a small phone, with a long question or
  // its picture, below the fold. Brought into view once when they appear (and when the place comes).
  const outcome = useRef<HTMLDivElement>(null);
  const revealed = result !== null || timesUp;
  useEffect(() => {
    if (revealed) outcome.current?.scrollIntoView({ block: 'nearest' });
  }, [revealed, state.place]);

  return (
    <section className="flex flex-col gap-5" aria-label="Question" data-testid="player-question" data-times-up={timesUp || undefined}>
      {state.live.questionNumber && (
        <p className="self-start rounded-full bg-white/10 px-3 py-1 text-sm font-bold tracking-wide" data-testid="player-question-number">
          {questionNumberText(state.live.questionNumber)}
        </p>
      )}
      <h1 className="mq-heading text-2xl leading-snug font-bold break-words">{question.text}</h1>
      {question.media && (
        <MediaFrame media={question.media} src={phoneSource(question.media)} className="max-h-56 w-full rounded-xl bg-black/30 object-contain" />
      )}
      <div className="grid gap-3" role="group" aria-label="Answers">
        {question.choices.map((choice, index) => {
          const chosen = selectedIndex === index;
          const resultTone = chosen && result ? (result.isCorrect ? 'correct' : 'wrong') : null;
          const markedCorrect = correctIndex === index && resultTone !== 'correct';
          return (
            <button
              key={index}
              type="button"
              disabled={!open}
              onClick={() => onPick(index)}
              data-testid="answer-button"
              data-chosen={chosen || undefined}
              data-result={resultTone ?? undefined}
              data-correct-answer={markedCorrect || undefined}
              aria-pressed={chosen}
              className="flex min-h-16 w-full items-center gap-4 rounded-2xl border-2 px-4 py-3 text-left text-lg font-semibold transition-all enabled:active:scale-[0.98] disabled:cursor-not-allowed"
              style={buttonStyle(chosen, resultTone, answered || ended, markedCorrect)}
            >
              <span
                className="mq-heading flex size-10 shrink-0 items-center justify-center rounded-full text-lg font-bold"
                style={resultTone ? { backgroundColor: 'rgb(0 0 0 / 0.2)' } : { backgroundColor: 'var(--mq-primary)', color: 'var(--mq-on-primary)' }}
                aria-hidden
              >
                {resultTone === 'correct' ? <Check className="size-6" strokeWidth={3} /> : resultTone === 'wrong' ? <X className="size-6" strokeWidth={3} /> : letter(index)}
              </span>
              <span className="min-w-0 break-words">
                <span className="sr-only">{letter(index)}: </span>
                {choice}
              </span>
              {resultTone && <span className="sr-only">{resultTone === 'correct' ? ' (correct)' : ' (incorrect)'}</span>}
              {markedCorrect && (
                <span
                  role="img"
                  aria-label="Correct answer"
                  className="ml-auto flex size-8 shrink-0 items-center justify-center rounded-full"
                  style={{ backgroundColor: 'var(--mq-success)', color: 'var(--mq-on-success)' }}
                  data-testid="correct-answer-mark"
                >
                  <Check className="size-5" strokeWidth={3} aria-hidden />
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div ref={outcome} className="flex scroll-mb-4 flex-col gap-5">
        {/* Read out by the phone's live region (PhoneAnnouncer), so not a live region itself. */}
        <p className="min-h-7 text-center text-lg font-semibold" data-testid="player-status" data-delivery={delivery ?? undefined}>
          {answerStatusText(state, delivery)}
        </p>
        {state.result && <PlayerPlace place={state.place} />}
      </div>
    </section>
  );
}

const DESTRUCTIVE = '#DC2626';

function buttonStyle(chosen: boolean, tone: 'correct' | 'wrong' | null, locked: boolean, markedCorrect: boolean): React.CSSProperties {
  if (tone === 'correct') return { backgroundColor: 'var(--mq-success)', borderColor: 'var(--mq-success)', color: 'var(--mq-on-success)' };
  if (tone === 'wrong') return { backgroundColor: DESTRUCTIVE, borderColor: DESTRUCTIVE, color: '#fff' };
  // The right answer after a wrong pick or none: outlined in the success colour, at full strength.
  if (markedCorrect) return { backgroundColor: 'rgb(255 255 255 / 0.1)', borderColor: 'var(--mq-success)', borderWidth: 3 };
  if (chosen) return { backgroundColor: 'rgb(255 255 255 / 0.14)', borderColor: 'var(--mq-primary)' };
  // Once a pick is made or the time is up, the other buttons dim and lose their colour: visibly inactive.
  return {
    backgroundColor: 'rgb(255 255 255 / 0.06)',
    borderColor: 'rgb(255 255 255 / 0.18)',
    opacity: locked ? 0.4 : 1,
    filter: locked ? 'grayscale(1)' : undefined,
  };
}

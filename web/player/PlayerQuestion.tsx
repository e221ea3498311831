import { Check, X } from 'lucide-react';
import { MediaFrame } from '../common/realtime/MediaFrame';
import { phoneSource } from '../common/realtime/mediaRotation';
import { canPick, outcomeText, type PlayerGameState } from './playerGameState';
import { PlayerPlace } from './PlayerPlace';
import { type AnswerStatus, answerStatusText } from './answer-sender';

const letter = (index: number) => String.fromCharCode(65 + index);

/**
 * The question, its media and four big lettered buttons. One pick locks them all; the pick then
 * waits for its result, which colours it (success or destructive, with an icon) and dims the rest.
 */
export function PlayerQuestion({ state, onPick, answerStatus = 'idle' }: { state: PlayerGameState; onPick: (index: number) => void; answerStatus?: AnswerStatus }) {
  const question = state.live.question!;
  const open = canPick(state);
  const { result, selectedIndex, answered } = state;
  const ended = state.live.phase !== 'question';

  return (
    <section className="flex flex-col gap-5" aria-label="Question" data-testid="player-question">
      <h1 className="mq-heading text-2xl leading-snug font-bold break-words">{question.text}</h1>
      {question.media && (
        <MediaFrame media={question.media} src={phoneSource(question.media)} className="max-h-56 w-full rounded-xl bg-black/30 object-contain" />
      )}
      <div className="grid gap-3" role="group" aria-label="Answers">
        {question.choices.map((choice, index) => {
          const chosen = selectedIndex === index;
          const resultTone = chosen && result ? (result.isCorrect ? 'correct' : 'wrong') : null;
          return (
            <button
              key={index}
              type="button"
              disabled={!open}
              onClick={() => onPick(index)}
              data-testid="answer-button"
              data-chosen={chosen || undefined}
              data-result={resultTone ?? undefined}
              aria-pressed={chosen}
              className="flex min-h-16 w-full items-center gap-4 rounded-2xl border-2 px-4 py-3 text-left text-lg font-semibold transition-all active:scale-[0.98]"
              style={buttonStyle(chosen, resultTone, answered)}
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
            </button>
          );
        })}
      </div>
      <p role="status" className="min-h-7 text-center text-lg font-semibold" data-testid="player-status">
        {statusLine(state, ended, answerStatus)}
      </p>
      {state.result && <PlayerPlace place={state.place} />}
    </section>
  );
}

function statusLine(state: PlayerGameState, ended: boolean, answerStatus: AnswerStatus): string {
  if (state.result) return outcomeText(state.outcome);
  // Honest about a pick on its way (DESIGN §14): sending, saved offline, too late.
  const sending = state.answered ? answerStatusText(answerStatus) : null;
  if (sending) return sending;
  if (state.answered && !ended) return 'Answer submitted! Waiting for results...';
  if (ended) return outcomeText(state.outcome);
  return '';
}

const DESTRUCTIVE = '#DC2626';

function buttonStyle(chosen: boolean, tone: 'correct' | 'wrong' | null, locked: boolean): React.CSSProperties {
  if (tone === 'correct') return { backgroundColor: 'var(--mq-success)', borderColor: 'var(--mq-success)', color: 'var(--mq-on-success)' };
  if (tone === 'wrong') return { backgroundColor: DESTRUCTIVE, borderColor: DESTRUCTIVE, color: '#fff' };
  if (chosen) return { backgroundColor: 'rgb(255 255 255 / 0.14)', borderColor: 'var(--mq-primary)' };
  // Once a pick is made, the other buttons dim.
  return { backgroundColor: 'rgb(255 255 255 / 0.06)', borderColor: 'rgb(255 255 255 / 0.18)', opacity: locked ? 0.4 : 1 };
}

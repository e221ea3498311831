import { Check } from 'lucide-react';
import type { QuestionView } from '../../protocol/index';
import type { ResolvedTheme } from '../common/theme';
import { MediaFrame } from '../common/realtime/MediaFrame';
import { plural, questionNumberText } from '../common/format';
import { questionTextStyle } from './displayTheme';

export const choiceLetter = (index: number) => String.fromCharCode(65 + index);
/** With media on screen the question text steps down a little to leave the picture room. */
const MEDIA_TEXT_SCALE = 0.75;

interface Props {
  theme: ResolvedTheme;
  question: QuestionView;
  /** Set once the question has ended: that choice turns the success colour, the rest dim. */
  correctIndex: number | null;
  /** Answers in so far while the question runs (null: not known yet, or closed). */
  answersIn: number | null;
  /** At the reveal: the room's answers per choice, drawn as a bar behind each choice. */
  distribution: number[] | null;
  /** "Question 3 of 10" (DESIGN §17); null when the server did not say. */
  questionNumber: { number: number; total: number } | null;
}

/** 'N answers in' (docs/SCREENS.md). */
export function answersInText(n: number): string {
  return `${plural(n, 'answer')} in`;
}

/** Share of the room per choice, whole percents (0 when nobody answered). */
export function splitPercents(distribution: number[]): number[] {
  const total = distribution.reduce((a, b) => a + b, 0);
  return distribution.map((n) => (total === 0 ? 0 : Math.round((100 * n) / total)));
}

/** The question in large text, its optional media, and the four lettered choices in two columns. */
export function DisplayQuestion({ theme, question, correctIndex, answersIn, distribution, questionNumber }: Props) {
  const revealed = correctIndex !== null;
  const withMedia = question.media !== null;
  const percents = distribution && splitPercents(distribution);
  return (
    <section className="flex h-full w-full max-w-[90rem] flex-col items-center justify-center gap-6" aria-label="Question" data-testid="display-question">
      {questionNumber && (
        <p className="mq-heading shrink-0 rounded-full px-6 py-1.5 text-2xl font-bold tracking-wide" style={{ color: 'var(--mq-on-primary)', backgroundColor: 'var(--mq-primary)' }} data-testid="question-number">
          {questionNumberText(questionNumber)}
        </p>
      )}
      <h2 className="mq-heading shrink-0 text-center leading-tight text-balance" style={questionTextStyle(theme, withMedia ? MEDIA_TEXT_SCALE : 1)}>
        {question.text}
      </h2>
      {question.media && (
        // The media takes what the text and the choices leave, but never less than a fifth of the screen.
        <div className="flex min-h-[20vh] w-full flex-1 justify-center">
          <MediaFrame media={question.media} className="h-full max-w-full rounded-2xl object-contain shadow-2xl" />
        </div>
      )}
      <ol className="grid w-full shrink-0 grid-cols-2 gap-5" aria-label="Choices">
        {question.choices.map((choice, index) => {
          const correct = revealed && index === correctIndex;
          const share = percents?.[index] ?? null;
          return (
            <li
              key={index}
              data-testid="display-choice"
              data-correct={correct || undefined}
              data-dimmed={(revealed && !correct) || undefined}
              data-count={distribution?.[index]}
              className={`mq-panel relative flex items-center gap-5 overflow-hidden rounded-2xl px-6 transition-all duration-500 ${withMedia ? 'min-h-20 py-3' : 'min-h-24 py-4'}`}
              style={{
                border: `0.2rem solid ${correct ? 'var(--mq-success)' : 'var(--mq-primary)'}`,
                backgroundColor: correct ? 'var(--mq-success)' : undefined,
                color: correct ? 'var(--mq-on-success)' : undefined,
                // With the split shown the other choices dim less: their counts must stay readable.
                opacity: revealed && !correct ? (share === null ? 0.3 : 0.6) : 1,
                transform: correct ? 'scale(1.03)' : undefined,
              }}
            >
              {share !== null && (
                // The room's share of this choice, as a bar behind it.
                <span
                  aria-hidden
                  data-testid="display-split-bar"
                  className="absolute inset-y-0 left-0 transition-[width] duration-700"
                  style={{ width: `${share}%`, backgroundColor: correct ? 'rgb(0 0 0 / 0.22)' : 'var(--mq-primary)', opacity: correct ? 1 : 0.5 }}
                />
              )}
              <span
                className="mq-heading relative flex size-16 shrink-0 items-center justify-center rounded-full text-4xl font-bold"
                style={correct ? { backgroundColor: 'rgb(0 0 0 / 0.2)' } : { backgroundColor: 'var(--mq-primary)', color: 'var(--mq-on-primary)' }}
                aria-hidden
              >
                {correct ? <Check className="size-10" strokeWidth={3} /> : choiceLetter(index)}
              </span>
              <span className="relative min-w-0 flex-1 text-4xl leading-snug font-semibold">
                <span className="sr-only">{choiceLetter(index)}: </span>
                {choice}
              </span>
              {share !== null && distribution && (
                <span className="mq-mono relative shrink-0 text-right text-4xl font-bold" data-testid="display-split">
                  {distribution[index]}
                  <span className="ml-3 text-3xl opacity-80">{share}%</span>
                </span>
              )}
            </li>
          );
        })}
      </ol>
      {answersIn !== null && (
        <p className="mq-panel shrink-0 rounded-full px-6 py-2 text-2xl font-semibold opacity-80" data-testid="display-answers-in" aria-live="off">
          {answersInText(answersIn)}
        </p>
      )}
    </section>
  );
}

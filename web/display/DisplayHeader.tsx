import { Clapperboard, Timer } from 'lucide-react';
import type { ResolvedTheme } from '../common/theme';
import { TIMER_WARNING_SECONDS, formatCountdown } from '../common/realtime/useCountdown';
import { cssUrl } from '../common/realtime/themeStyle';

interface Props {
  theme: ResolvedTheme;
  title: string;
  /** Seconds left in the running question; null hides the countdown. */
  countdown: number | null;
}

/** Logo (or the default icon), the session title, 'Live Trivia' and, during a question, the countdown. */
export function DisplayHeader({ theme, title, countdown }: Props) {
  return (
    <header
      className="relative shrink-0 bg-cover bg-center"
      style={{ backgroundImage: theme.headerBackgroundImage ? cssUrl(theme.headerBackgroundImage) : undefined }}
    >
      <div className="mq-panel flex h-24 items-center justify-between gap-8 px-12">
        <div className="flex min-w-0 items-center gap-5">
          {theme.logo ? (
            <img src={theme.logo} alt="" className="h-16 w-auto max-w-64 object-contain" data-testid="display-logo" />
          ) : (
            <Clapperboard className="size-14 shrink-0" style={{ color: 'var(--mq-primary)' }} aria-hidden data-testid="display-default-icon" />
          )}
          <div className="min-w-0">
            <h1 className="mq-heading truncate text-4xl leading-tight font-bold">{title}</h1>
            <p className="text-xl font-semibold tracking-wide" style={{ color: 'var(--mq-secondary)' }}>
              Live Trivia
            </p>
          </div>
        </div>
        {countdown !== null && <Countdown seconds={countdown} />}
      </div>
    </header>
  );
}

function Countdown({ seconds }: { seconds: number }) {
  const warning = seconds <= TIMER_WARNING_SECONDS;
  return (
    <div
      role="timer"
      aria-label="Time remaining"
      data-testid="display-countdown"
      data-warning={warning}
      className={`mq-mono flex shrink-0 items-center gap-3 rounded-2xl px-6 py-2 text-6xl font-bold ${warning ? 'mq-pulse' : ''}`}
      style={{
        color: warning ? 'var(--mq-warning)' : 'var(--mq-text)',
        border: `0.2rem solid ${warning ? 'var(--mq-warning)' : 'var(--mq-primary)'}`,
      }}
    >
      <Timer className="size-12" aria-hidden />
      {formatCountdown(seconds)}
    </div>
  );
}

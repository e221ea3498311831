import { PartyPopper, Trophy } from 'lucide-react';
import { finishedText, joinedText } from './phoneMoments';
import type { Place } from './playerGameState';

/**
 * After joining, until the first question: the phone says the player is in, by name. With the
 * session's media to show before the game it is a banner above them.
 */
export function PlayerWelcome({ name, compact = false }: { name: string; compact?: boolean }) {
  if (compact) {
    return (
      <section className="mb-4 flex items-center gap-3 rounded-2xl bg-white/10 px-4 py-3" aria-label="Joined" data-testid="player-welcome">
        <PartyPopper className="size-6 shrink-0" style={{ color: 'var(--mq-primary)' }} aria-hidden />
        <h1 className="mq-heading min-w-0 text-xl font-bold break-words" data-testid="player-joined">
          {joinedText(name)}
        </h1>
      </section>
    );
  }
  return (
    <section className="flex flex-1 flex-col items-center justify-center gap-5 py-12 text-center" aria-label="Joined" data-testid="player-welcome">
      <span className="mq-pop flex size-20 items-center justify-center rounded-full" style={{ backgroundColor: 'var(--mq-primary)', color: 'var(--mq-on-primary)' }} aria-hidden>
        <PartyPopper className="size-10" />
      </span>
      <h1 className="mq-heading text-4xl leading-tight font-black break-words" data-testid="player-joined">
        {joinedText(name)}
      </h1>
      <p className="text-lg opacity-85">Look up at the big screen: the game starts soon.</p>
      <p className="text-base opacity-70">Keep this page open.</p>
    </section>
  );
}

/** The end: the place among everyone who played, and the final score. */
export function PlayerFinished({ place, score }: { place: Place | null; score: number }) {
  return (
    <section className="flex flex-1 flex-col items-center justify-center gap-5 py-12 text-center" data-testid="player-finished">
      <Trophy className="size-16" style={{ color: 'var(--mq-primary)' }} aria-hidden />
      <h1 className="mq-heading text-4xl font-black" style={{ color: 'var(--mq-primary)' }}>
        Thanks for playing!
      </h1>
      {place && (
        <p className="mq-heading text-3xl font-black" data-testid="player-final-place">
          {finishedText(place)}
        </p>
      )}
      <p className="text-xl">Final score: {score}</p>
    </section>
  );
}

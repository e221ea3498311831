import { SearchX } from 'lucide-react';

/**
 * An unknown game on a phone (an old, mistyped or deleted link): what happened and what to do,
 * in the moviegoer's words, instead of a bare "Session not found".
 */
export function GameNotFound() {
  return (
    <section className="flex flex-1 flex-col items-center justify-center gap-5 py-16 text-center" data-testid="game-not-found">
      <SearchX className="size-16 opacity-80" style={{ color: 'var(--mq-primary)' }} aria-hidden />
      <h1 className="mq-heading text-3xl font-black">We can't find this game</h1>
      <p className="text-lg opacity-85">The link may be old or mistyped, or the game is over.</p>
      <p className="text-lg opacity-85">Scan the QR code on the big screen to join the game that's on now.</p>
    </section>
  );
}

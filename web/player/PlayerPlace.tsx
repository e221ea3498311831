import { nextPlaceText, placeText, type Place } from './playerGameState';

/** The player's place in the room with the result: '#14 of 180' and the points to the next place. */
export function PlayerPlace({ place }: { place: Place | null }) {
  if (!place) return null;
  return (
    <div className="mq-panel mx-auto flex flex-col items-center gap-1 rounded-2xl px-6 py-3 text-center" data-testid="player-place">
      <p className="mq-heading text-3xl font-black" style={{ color: 'var(--mq-primary)' }} data-testid="player-rank">
        {placeText(place)}
      </p>
      <p className="text-base font-semibold opacity-90" data-testid="player-next-place">
        {nextPlaceText(place)}
      </p>
    </div>
  );
}

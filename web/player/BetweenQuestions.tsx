import type { MediaView } from '../../protocol/index';
import { MediaFrame } from '../common/realtime/MediaFrame';
import { phoneSource, useMediaRotation } from '../common/realtime/mediaRotation';
import { outcomeText, type Outcome, type Place } from './playerGameState';
import { PlayerPlace } from './PlayerPlace';

/**
 * Between questions (SPEC §2): the rotating media, the phone version preferred and linked to the
 * promotional link in a new tab; or 'Get Ready!' with how the last question went.
 */
export function BetweenQuestions({ items, outcome, place }: { items: MediaView[]; outcome: Outcome | null; place: Place | null }) {
  const { item } = useMediaRotation(items);
  if (item) {
    const media = <MediaFrame media={item} src={phoneSource(item)} className="max-h-[70dvh] w-full rounded-2xl object-contain" />;
    return (
      <section className="flex flex-1 items-center justify-center" aria-label="Media" data-testid="player-media" data-media-id={item.id}>
        {item.promotionalLink ? (
          <a href={item.promotionalLink} target="_blank" rel="noopener noreferrer" className="block w-full">
            {media}
          </a>
        ) : (
          media
        )}
      </section>
    );
  }
  return (
    <section className="flex flex-1 flex-col items-center justify-center gap-4 py-12 text-center" aria-label="Get Ready" data-testid="player-get-ready">
      <h1 className="mq-heading text-5xl font-black" style={{ color: 'var(--mq-primary)' }}>
        Get Ready!
      </h1>
      <p className="text-xl font-semibold" data-testid="player-outcome" data-outcome={outcome?.kind ?? 'none'}>
        {outcomeText(outcome)}
      </p>
      <PlayerPlace place={place} />
    </section>
  );
}

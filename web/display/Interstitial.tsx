import type { MediaView } from '../../protocol/index';
import { MediaFrame } from '../common/realtime/MediaFrame';
import { useMediaRotation } from '../common/realtime/mediaRotation';

/** Between questions: the session's media in rotation, or 'Get Ready!' when there is none. */
export function Interstitial({ items }: { items: MediaView[] }) {
  const { item, position } = useMediaRotation(items);
  if (!item) return <GetReady />;
  return (
    <section className="flex h-full w-full items-center justify-center" aria-label="Media" data-testid="display-media" data-media-id={item.id} data-position={position}>
      <MediaFrame media={item} className="h-full w-full object-contain" />
    </section>
  );
}

export function GetReady() {
  return (
    <section className="flex h-full flex-col items-center justify-center gap-6 text-center" aria-label="Get Ready" data-testid="display-get-ready">
      <h2 className="mq-heading text-9xl font-black" style={{ color: 'var(--mq-primary)' }}>
        Get Ready!
      </h2>
      <p className="text-4xl opacity-90">Next question coming soon...</p>
    </section>
  );
}

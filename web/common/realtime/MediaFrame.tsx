import type { MediaView } from '../../../protocol/index';
import { isVideo } from './mediaRotation';

/**
 * One image or video on a live screen. Videos play muted and loop, as a cinema expects: no
 * sound over the room and no frozen last frame while the item stays on screen.
 */
export function MediaFrame({ media, src = media.filePath, className }: { media: MediaView; src?: string; className?: string }) {
  if (isVideo(media)) {
    return (
      <video
        key={src}
        src={src}
        className={className}
        autoPlay
        muted
        loop
        playsInline
        preload="auto"
        data-testid="media-video"
      />
    );
  }
  return <img key={src} src={src} alt="" className={className} data-testid="media-image" />;
}

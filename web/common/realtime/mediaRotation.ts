import { useEffect, useState } from 'react';
import type { MediaView } from '../../../protocol/index';

/**
 * Interstitial media (SPEC §4): items play one after another, each for its own duration, and the
 * rotation loops back to the start after the first N, where N is the lesser of the list size and
 * the per-transition count. Shared by the display and the phone.
 */
export const DEFAULT_MEDIA_DURATION_SECONDS = 3;
/** SPEC §9: the phone's count when neither the state nor the session gives one. */
export const PLAYER_DEFAULT_MEDIA_COUNT = 3;

export function rotationItems(media: readonly MediaView[], count: number | null | undefined): MediaView[] {
  const n = Math.min(media.length, Math.max(0, Math.floor(count ?? 0)));
  return media.slice(0, n);
}

export function mediaDurationMs(item: Pick<MediaView, 'duration'>): number {
  const seconds = Number.isFinite(item.duration) && item.duration > 0 ? item.duration : DEFAULT_MEDIA_DURATION_SECONDS;
  return seconds * 1000;
}

/** Older rows may hold a MIME type ('video/mp4') instead of 'video'. */
export function isVideo(item: Pick<MediaView, 'fileType'>): boolean {
  return item.fileType === 'video' || item.fileType.startsWith('video/');
}

/** The phone shows the phone-optimised file when there is one. */
export function phoneSource(item: Pick<MediaView, 'filePath' | 'phoneFilePath'>): string {
  return item.phoneFilePath || item.filePath;
}

/** Identity of a rotation: when it changes, the rotation starts again from the first item. */
export function rotationKey(items: readonly MediaView[]): string {
  return items.map((item) => `${item.id}:${item.duration}`).join('|');
}

/**
 * The item on screen now, or null when there is nothing to rotate. `position` tells a
 * screen when to restart a video that is shown twice in a row (a rotation of one).
 */
export function useMediaRotation(items: readonly MediaView[]): { item: MediaView | null; position: number } {
  const key = rotationKey(items);
  const [at, setAt] = useState({ key, index: 0, position: 0 });
  const current = at.key === key ? at : { key, index: 0, position: 0 };
  const item = items.length ? items[current.index % items.length] : null;

  useEffect(() => {
    if (!item) return;
    const timer = setTimeout(() => {
      setAt({ key, index: (current.index + 1) % items.length, position: current.position + 1 });
    }, mediaDurationMs(item));
    return () => clearTimeout(timer);
    // The rotation advances on its own timer; it restarts only when the list (key) changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, current.index, current.position]);

  return { item, position: current.position };
}

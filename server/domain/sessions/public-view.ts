import type { PublicSessionInfo, Session } from '../../../protocol/index.js';

/** What anyone holding a session id may see of it (no return message, no schedule). */
export function toPublicSessionInfo(session: Session): PublicSessionInfo {
  return {
    id: session.id,
    // The audience never sees a pre-show copy's long operator title (DESIGN §17).
    title: session.audienceTitle ?? session.title,
    status: session.status,
    theme: session.theme,
    mediaItemsPerTransition: session.mediaItemsPerTransition,
    prizeDraw: session.prizeDraw,
  };
}

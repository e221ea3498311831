import type { SessionLifecycle } from './lifecycle.js';

/** How often scheduled sessions are checked: a start is at most this late. */
export const SCHEDULE_CHECK_INTERVAL_MS = 1000;

/**
 * Starts scheduled sessions when their time comes. The status lives in the database, so a
 * session whose time passed while the server was down starts on the first check after boot.
 */
export function startScheduler(lifecycle: SessionLifecycle, onError: (err: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    lifecycle
      .startDue()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, SCHEDULE_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

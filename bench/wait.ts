/** Waiting in the bench's scenarios: every wait has a deadline, so a run always ends. */
import { performance } from 'node:perf_hooks';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` every 20 ms; false when `timeoutMs` passed first. */
export async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

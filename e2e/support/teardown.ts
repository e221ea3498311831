import type { Browser, BrowserContext } from 'playwright-core';
import { onTestFinished } from 'vitest';

/** A teardown step still running after this long is reported (the hook's own limit is 60 s). */
const SLOW_STEP_MS = 15_000;

/**
 * Runs one step of a harness's teardown; if it is still running after SLOW_STEP_MS, says which
 * one and what the process holds open. A full run once timed out in an afterAll hook with every
 * test passed, and nothing said whether the browser or the server would not close.
 */
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const startedAt = Date.now();
  const watchdog = setInterval(() => {
    const resources = process.getActiveResourcesInfo().reduce<Record<string, number>>((counts, r) => ({ ...counts, [r]: (counts[r] ?? 0) + 1 }), {});
    console.error(`teardown: ${name} still running after ${Date.now() - startedAt} ms; open: ${JSON.stringify(resources)}`);
  }, SLOW_STEP_MS);
  try {
    return await work();
  } finally {
    clearInterval(watchdog);
  }
}

/** The browser's contexts, the browser, then the server: the order both harnesses close in. */
export async function closeHarness(contexts: BrowserContext[], browser: Browser, server: { close(): Promise<void> }): Promise<void> {
  for (const [i, context] of contexts.entries()) await step(`closing browser context ${i + 1} of ${contexts.length}`, () => context.close().catch(() => undefined));
  await step('closing the browser', () => browser.close().catch(() => undefined));
  await step('closing the server', () => server.close());
}

/**
 * A harness's new context: closed when the test that made it passes, and otherwise by
 * `closeHarness`. Left open, every earlier test's pages kept their sockets and polling, and by a
 * file's eighth test a loaded machine missed the 10 s waits. A failed test's pages stay open until
 * the file ends, so their logs are printed with the failure (page-log.ts); one made outside a test
 * (a file's `beforeAll`) lives until the harness closes.
 */
export function track(context: BrowserContext, contexts: BrowserContext[]): BrowserContext {
  contexts.push(context);
  try {
    onTestFinished(async ({ task }) => {
      if (task.result?.state === 'fail') return;
      const at = contexts.indexOf(context);
      if (at >= 0) contexts.splice(at, 1);
      await context.close();
    });
  } catch {
    // Not inside a test: nothing to tie the context to.
  }
  return context;
}

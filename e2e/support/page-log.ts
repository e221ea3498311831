import type { BrowserContext, Page } from 'playwright-core';

/**
 * What each open page of a browser flow saw lately: its console, its errors, the WebSocket frames
 * it sent and got, and requests that failed. Printed when a test fails (page-log-setup.ts), so a
 * flow that fails once in a full run says what the phone was shown: twice a flake could not be
 * reproduced and nothing told what the page had received (docs/PERFORMANCE.md, session 57).
 */

/** Lines kept per page: the last few seconds of a live game, not the whole file's history. */
export const PAGE_LOG_LINES = 80;
/** A frame is cut here: enough to read its type and question, not a whole leaderboard. */
const FRAME_CHARS = 240;

interface PageLog {
  number: number;
  page: Page;
  lines: string[];
}

const open = new Set<PageLog>();
let pagesSeen = 0;

function clock(): string {
  return new Date().toISOString().slice(11, 23);
}

function cut(text: string): string {
  return text.length > FRAME_CHARS ? `${text.slice(0, FRAME_CHARS)}… (${text.length} chars)` : text;
}

function payloadText(payload: string | Buffer): string {
  return typeof payload === 'string' ? payload : `<${payload.length} bytes>`;
}

/** Keeps the page's recent events from now until it closes. */
export function watchPage(page: Page): void {
  const log: PageLog = { number: ++pagesSeen, page, lines: [] };
  const add = (line: string) => {
    log.lines.push(`${clock()} ${line}`);
    if (log.lines.length > PAGE_LOG_LINES) log.lines.shift();
  };
  open.add(log);
  page.on('close', () => open.delete(log));
  page.on('console', (message) => add(`console.${message.type()}: ${cut(message.text())}`));
  page.on('pageerror', (error) => add(`page error: ${cut(String(error))}`));
  page.on('requestfailed', (request) => add(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`));
  page.on('websocket', (socket) => {
    const where = new URL(socket.url()).pathname;
    add(`ws open ${where}`);
    socket.on('framereceived', ({ payload }) => add(`ws ← ${cut(payloadText(payload))}`));
    socket.on('framesent', ({ payload }) => add(`ws → ${cut(payloadText(payload))}`));
    socket.on('socketerror', (error) => add(`ws error ${where}: ${error}`));
    socket.on('close', () => add(`ws closed ${where}`));
  });
}

/** Every page the context opens is watched. */
export function watchContext(context: BrowserContext): void {
  context.on('page', watchPage);
}

/** The recent events of every page still open, each headed by its number, size and address. */
export function openPageLogs(): string[] {
  return [...open].map(({ number, page, lines }) => {
    const size = page.viewportSize();
    const head = `page ${number} (${size ? `${size.width}×${size.height}` : 'no viewport'}) at ${page.url()}`;
    return [head, ...(lines.length > 0 ? lines.map((line) => `  ${line}`) : ['  (nothing yet)'])].join('\n');
  });
}

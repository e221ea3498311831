import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { openPageLogs, PAGE_LOG_LINES } from './support/page-log.js';

/**
 * The log a failing browser flow prints (support/page-log.ts): what a page of a browser launched
 * for the tests saw, with its frames both ways, its console and its errors, and only its latest.
 */
describe('the open pages’ log printed with a failing browser flow', () => {
  let browser: Browser;
  let server: http.Server;
  let origin: string;
  let url: string;

  beforeAll(async () => {
    // A page and an echoing socket on one local origin (Chromium keeps other pages off local addresses).
    server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<title>phone</title>'));
    new WebSocketServer({ server }).on('connection', (socket) => socket.on('message', (data) => socket.send(`echo:${String(data)}`)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    url = `${origin.replace('http', 'ws')}/game`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const logOf = (marker: string) => openPageLogs().find((log) => log.includes(marker));

  it('keeps a page’s frames, console and errors, its latest lines only, until the page closes', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${origin}/player`);
    await page.evaluate(async (address) => {
      const socket = new WebSocket(address);
      await new Promise((resolve) => socket.addEventListener('open', resolve));
      const echoed = new Promise((resolve) => socket.addEventListener('message', resolve));
      socket.send('pick-2');
      await echoed;
      console.warn('buttons stay disabled');
      setTimeout(() => {
        throw new Error('boom');
      });
    }, url);
    await expect.poll(() => logOf('pick-2') ?? '').toContain('page error: Error: boom');
    const log = logOf('pick-2')!;
    expect(log.split('\n')[0]).toBe(`page ${log.match(/^page (\d+)/)![1]} (390×844) at ${origin}/player`);
    expect(log).toContain('ws open /game');
    expect(log).toMatch(/\d\d:\d\d:\d\d\.\d{3} ws → pick-2\n.*ws ← echo:pick-2/);
    expect(log).toContain('console.warning: buttons stay disabled');

    // A long game: only the latest lines stay, the first frames go.
    await page.evaluate(async ([address, count]) => {
      const socket = new WebSocket(address);
      await new Promise((resolve) => socket.addEventListener('open', resolve));
      let left = count;
      const all = new Promise((resolve) => socket.addEventListener('message', () => --left === 0 && resolve(undefined)));
      for (let i = 1; i <= count; i++) socket.send(`tap-${i}`);
      await all;
    }, [url, PAGE_LOG_LINES] as const);
    await expect.poll(() => logOf('pick-2') === undefined && (logOf(`echo:tap-${PAGE_LOG_LINES}`) ?? '')).toContain(`ws ← echo:tap-${PAGE_LOG_LINES}`);
    expect(logOf(`echo:tap-${PAGE_LOG_LINES}`)!.split('\n')).toHaveLength(1 + PAGE_LOG_LINES);

    await page.close();
    expect(logOf(`echo:tap-${PAGE_LOG_LINES}`)).toBeUndefined();
    await context.close();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import WebSocket from 'ws';
import { WEB_DIR, startTestServer, type TestServer } from '../server/testing/server.js';
import { SeedApi } from './support/app.js';
import { launchBrowser } from './support/browser.js';
import { closeHarness, track } from './support/teardown.js';

/**
 * Shared set-up for the display and phone browser tests: a real server and Chromium, a display
 * page at 720p, phones at 390×844, seeding through the HTTP API, an admin socket to step the
 * game, and optional screenshots (set MARQUEE_SCREENSHOTS to a folder to keep them).
 */
export const DISPLAY_VIEWPORT = { width: 1280, height: 720 };
export const PHONE_VIEWPORT = { width: 390, height: 844 };

export interface GameHarness {
  server: TestServer;
  browser: Browser;
  api: GameApi;
  display(sessionId: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** A blank page in a browser of its own (no login, no screen link), closed with the harness. */
  blankPage(viewport?: { width: number; height: number }): Promise<Page>;
  phone(): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * The built web app to serve: dist/web, or MARQUEE_WEB_DIR for a private build
 * (`npx vite build --outDir /tmp/x --emptyOutDir`) that other builds in the same checkout cannot swap out mid-run.
 */
export const BUILT_WEB_DIR = process.env.MARQUEE_WEB_DIR ?? WEB_DIR;

export async function startGameHarness(
  env: Record<string, string> = {},
  serverOptions: Omit<NonNullable<Parameters<typeof startTestServer>[0]>, 'env' | 'webDir'> = {},
): Promise<GameHarness> {
  const server = await startTestServer({ ...serverOptions, env, webDir: BUILT_WEB_DIR });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.close();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  const api = new GameApi(server.baseUrl, server.adminUsername, server.adminPassword);
  const newContext = async (options: Parameters<Browser['newContext']>[0]) => track(await browser.newContext({ baseURL: server.baseUrl, ...options }), contexts);
  return {
    server,
    browser,
    api,
    async blankPage(viewport = DISPLAY_VIEWPORT) {
      const page = await (await newContext({ viewport })).newPage();
      page.setDefaultTimeout(15_000);
      return page;
    },
    async display(sessionId, viewport = DISPLAY_VIEWPORT) {
      const page = await (await newContext({ viewport })).newPage();
      page.setDefaultTimeout(15_000);
      // As the operator opens it: the screen link, with the display key that lets it show join codes.
      await page.goto((await api.request<{ url: string }>('GET', `/api/admin/sessions/${sessionId}/screen-link`)).url);
      return page;
    },
    async phone() {
      const context = await newContext({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { context, page };
    },
    close: () => closeHarness(contexts, browser, server),
  };
}

/** Fills the join form as a player would and waits for the game screen. */
export async function joinThroughForm(page: Page, sessionId: string, name: string, email: string, path = `/player/${sessionId}`) {
  await page.goto(path);
  await page.getByLabel('Your Name').fill(name);
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Join Game' }).click();
  await page.waitForURL(`**/player/${sessionId}/game`);
}

export type SlideType = 'intro' | 'rules' | 'break' | 'leaderboard' | 'join';

export class GameApi extends SeedApi {
  constructor(
    readonly origin: string,
    username: string,
    password: string,
  ) {
    super(origin, username, password);
  }

  /** A session with its items in the given order (questions are created on the way). */
  async seedSession(opts: {
    title: string;
    autoRotate?: boolean;
    returnMessage?: string;
    mediaItemsPerTransition?: number;
    theme?: Record<string, unknown>;
    items: Array<
      | { question: { text: string; choices: string[]; correctIndex: number; points?: number; timeLimitSeconds?: number; mediaId?: string | null } }
      | { slide: SlideType; text?: string }
      | { mediaBlock: number }
    >;
  }): Promise<{ id: string; questionIds: string[] }> {
    const session = await this.createSession({
      title: opts.title,
      autoRotate: opts.autoRotate ?? true,
      mediaItemsPerTransition: opts.mediaItemsPerTransition ?? 1,
      ...(opts.returnMessage ? { returnMessage: opts.returnMessage } : {}),
    });
    if (opts.theme) await this.request('PUT', `/api/admin/sessions/${session.id}`, { theme: opts.theme });
    const questionIds: string[] = [];
    for (const item of opts.items) {
      if ('question' in item) {
        const q = await this.request<{ id: string }>('POST', '/api/admin/questions', {
          points: 10,
          timeLimitSeconds: 5,
          categories: [],
          mediaId: null,
          ...item.question,
        });
        questionIds.push(q.id);
        await this.addQuestionToSession(session.id, q.id);
      } else if ('slide' in item) {
        await this.request('POST', `/api/admin/sessions/${session.id}/slides`, {
          slideType: item.slide,
          ...(item.text ? { slideData: { text: item.text } } : {}),
        });
      } else {
        await this.request('POST', `/api/admin/sessions/${session.id}/media-blocks`, { mediaItemCount: item.mediaBlock });
      }
    }
    return { id: session.id, questionIds };
  }

  /** Uploads a PNG through the signed upload URL and adds it to the library. */
  async createImageMedia(opts: { rgb: [number, number, number]; duration: number; phoneRgb?: [number, number, number]; promotionalLink?: string }) {
    const filePath = await this.uploadPng(opts.rgb);
    const phoneFilePath = opts.phoneRgb ? await this.uploadPng(opts.phoneRgb, 180, 320) : null;
    return this.request<{ id: string; filePath: string; phoneFilePath: string | null }>('POST', '/api/media', {
      filePath,
      phoneFilePath,
      fileType: 'image',
      duration: opts.duration,
      promotionalLink: opts.promotionalLink ?? null,
    });
  }

  async uploadThemeImage(rgb: [number, number, number], width = 640, height = 360): Promise<string> {
    return this.uploadPng(rgb, width, height, 'theme');
  }

  private async uploadPng(rgb: [number, number, number], width = 640, height = 360, kind = 'media'): Promise<string> {
    const { uploadURL } = await this.request<{ uploadURL: string }>('POST', '/api/media/upload', { kind });
    const res = await fetch(uploadURL, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(pngBytes(width, height, rgb)) });
    if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
    const objectId = new URL(uploadURL).pathname.split('/').filter(Boolean).pop()!;
    return `/media/${objectId}`;
  }

  assignMedia(sessionId: string, mediaId: string) {
    return this.request('POST', `/api/admin/sessions/${sessionId}/media`, { mediaId });
  }

  start(sessionId: string) {
    return this.request('POST', `/api/admin/sessions/${sessionId}/start`);
  }

  stop(sessionId: string) {
    return this.request('POST', `/api/admin/sessions/${sessionId}/stop`);
  }

  /** An admin socket, to step the game with Next as the Live Controls would. */
  async adminSocket(sessionId: string): Promise<AdminSocket> {
    const { token } = await this.login();
    const base = new URL(this.origin);
    const socket = new WebSocket(`ws://${base.host}/ws?${new URLSearchParams({ sessionId, type: 'admin', token })}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new AdminSocket(socket);
  }

  private baseUrlForSockets(): string {
    return (this as unknown as { baseUrl: string }).baseUrl;
  }
}

export class AdminSocket {
  constructor(private readonly socket: WebSocket) {}
  next(): void {
    this.socket.send(JSON.stringify({ type: 'admin_next_question' }));
  }
  close(): void {
    this.socket.close();
  }
}

/** Waits out a CSS transition: the computed value of `property` becomes `value`. */
export async function waitForStyle(page: Page, selector: string, property: string, value: string): Promise<void> {
  await page.waitForFunction(
    ([sel, prop, val]) => {
      const el = document.querySelector(sel);
      return !!el && getComputedStyle(el).getPropertyValue(prop) === val;
    },
    [selector, property, value] as const,
  );
}

/** Saves a screenshot when MARQUEE_SCREENSHOTS names a folder; a no-op otherwise (CI). */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.MARQUEE_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

// ---------------------------------------------------------------------------------------------
// A solid-colour PNG with a lighter band, made without image libraries (the upload sniffs bytes).

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function pngBytes(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const band = y > height * 0.4 && y < height * 0.6;
    for (let x = 0; x < width; x++) row.set(band ? [255 - r, 255 - g, 255 - b] : [r, g, b], 1 + x * 3);
    rows.push(Buffer.from(row));
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

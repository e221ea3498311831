/**
 * The web app under its Content-Security-Policy (server/transport/http/csp.ts): every screen — the admin
 * login and each dashboard tab with its dialogs and uploader, an auditorium's screen, the big
 * screen through a show with media and themed images, a phone joining and answering — runs without the browser reporting a
 * single violation.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../server/domain/media/testing/s3-server.js';
import { tinyPng } from '../server/domain/media/testing/fixtures.js';
import { openDashboard } from './support/app.js';
import { closeByEscape, dialog, expectToast, openTab } from './support/ui.js';
import { joinThroughForm, startGameHarness, type GameHarness } from './game-support.js';

let h: GameHarness;
const violations: string[] = [];

/** Records every violation a page of this context reports, across navigations. */
async function watchViolations(context: BrowserContext, screen: string): Promise<void> {
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    violations.push(`${screen}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`);
    });
  });
}

function watchConsole(page: Page, screen: string): void {
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(`${screen} console: ${message.text()}`);
  });
}

async function newScreen(screen: string, open: () => Promise<{ context: BrowserContext; page: Page }>): Promise<Page> {
  const { context, page } = await open();
  await watchViolations(context, screen);
  watchConsole(page, screen);
  return page;
}

beforeAll(async () => {
  h = await startGameHarness();
}, 60_000);
afterAll(() => h?.close());

describe('Content-Security-Policy', () => {
  it('is sent with every page, strict: scripts and styles from self, sockets to self', async () => {
    const res = await fetch(`${h.server.baseUrl}/admin`);
    const policy = res.headers.get('content-security-policy')!;
    const host = new URL(h.server.baseUrl).host;
    expect(policy).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(policy).toMatch(/(^|; )style-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'(;|$)/);
    expect(policy).toContain(`connect-src 'self' ws://${host} wss://${host}`);
    expect(policy).toContain("media-src 'self' blob:");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain('unsafe');
    // A fresh nonce per page load, written into the page for the app to hand to Radix.
    const nonce = /'nonce-([^']+)'/.exec(policy)![1];
    expect(await res.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
    const again = (await fetch(`${h.server.baseUrl}/admin`)).headers.get('content-security-policy');
    expect(again).not.toBe(policy);
  });

  it('reports no violation on any screen', async () => {
    const media = await h.api.createImageMedia({ rgb: [200, 30, 30], duration: 1, phoneRgb: [30, 200, 30], promotionalLink: 'https://example.com/popcorn' });
    const background = await h.api.uploadThemeImage([20, 40, 120], 1280, 720);
    const { id, questionIds } = await h.api.seedSession({
      title: 'Policy Night',
      autoRotate: false,
      theme: { mainBackgroundImage: background },
      items: [
        { slide: 'join' },
        { question: { text: 'Which film?', choices: ['A', 'B', 'C', 'D'], correctIndex: 1, timeLimitSeconds: 30, mediaId: media.id } },
        { mediaBlock: 1 },
      ],
    });
    await h.api.assignMedia(id, media.id);

    // The dashboard: every tab, a dialog (Radix locks page scroll with a style element) and the uploader.
    const admin = await newScreen('admin', async () => {
      const context = await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: { width: 1280, height: 800 } });
      return { context, page: await context.newPage() };
    });
    admin.setDefaultTimeout(15_000);
    await openDashboard(admin, h.api);
    for (const tab of ['Questions', 'Media', 'Players', 'Auditoriums', 'Sessions']) await openTab(admin, tab);
    await admin.getByRole('button', { name: 'Create Session' }).first().click();
    await closeByEscape(dialog(admin, 'Create New Session'));
    await openTab(admin, 'Media');
    await admin.getByRole('button', { name: 'Upload Media' }).click();
    await closeByEscape(dialog(admin, 'Upload Media'));
    await openTab(admin, 'Sessions');

    // The big screen before and during the show, and a phone joining and answering.
    const display = await newScreen('display', async () => {
      const context = await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: { width: 1280, height: 720 } });
      return { context, page: await context.newPage() };
    });
    display.setDefaultTimeout(15_000);
    // An auditorium's screen between shows, then the session's.
    const auditorium = await h.api.request<{ id: string }>('POST', '/api/admin/auditoriums', { name: 'Screen 7' });
    await display.goto(`/display/auditorium/${auditorium.id}`);
    await display.getByTestId('auditorium-idle').waitFor();
    // The session's screen as the operator opens it: with its key, so the join code is drawn under the CSP too.
    await display.goto((await h.api.request<{ url: string }>('GET', `/api/admin/sessions/${id}/screen-link`)).url);
    await display.getByTestId('display-lobby').waitFor(); // before Start: the lobby (DESIGN §17)
    const phone = await newScreen('phone', () => h.phone());
    await h.api.start(id);
    await display.getByText('Scan me', { exact: false }).or(display.locator('canvas')).first().waitFor();
    await joinThroughForm(phone, id, 'Ada', 'ada@example.com');
    const socket = await h.api.adminSocket(id);
    await socket.next();
    await display.getByText('Which film?').waitFor();
    await phone.getByRole('heading', { name: 'Which film?' }).waitFor();
    await phone.getByTestId('answer-button').nth(1).click();
    await phone.getByTestId('answer-button').first().isDisabled();
    await socket.next();
    await display.getByTestId('display-media').waitFor();
    socket.close();

    // The admin's live view follows the game too.
    await admin.getByText('Policy Night').first().waitFor();
    expect(questionIds).toHaveLength(1);
    expect(violations).toEqual([]);
  }, 120_000);
});

describe('Content-Security-Policy with media on S3', () => {
  let s3: S3TestServer;
  let withS3: GameHarness;
  beforeAll(async () => {
    s3 = await startS3TestServer();
    withS3 = await startGameHarness(s3.env);
  }, 60_000);
  afterAll(async () => {
    await withS3?.close();
    await s3?.close();
  });

  it('lets the uploader send the file to the bucket, and the library show it, without a violation', async () => {
    const policy = (await fetch(`${withS3.server.baseUrl}/admin`)).headers.get('content-security-policy')!;
    const bucket = new URL(s3.endpoint).origin;
    expect(policy).toContain(`media-src 'self' blob: ${bucket}`);
    expect(policy).toMatch(new RegExp(`connect-src 'self' ws://\\S+ wss://\\S+ ${bucket}(;|$)`));

    const page = await newScreen('admin with S3', async () => {
      const context = await withS3.browser.newContext({ baseURL: withS3.server.baseUrl, viewport: { width: 1280, height: 800 } });
      return { context, page: await context.newPage() };
    });
    page.setDefaultTimeout(15_000);
    await openDashboard(page, withS3.api);
    await openTab(page, 'Media');
    await page.getByRole('button', { name: 'Upload Media' }).click();
    const upload = dialog(page, 'Upload Media');
    const input = upload.getByRole('group', { name: 'Display Media (required)' }).locator('input[type=file]').first();
    await input.setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: tinyPng(64, 36) });
    await expectToast(page, 'Display media uploaded');
    await upload.getByRole('button', { name: 'Save Media' }).click();
    await expectToast(page, 'Media created');
    await page.getByTestId('media-card').first().locator('img').first().waitFor();
    expect(s3.contents().keys.some((key) => key.startsWith('media/'))).toBe(true);
    expect(violations).toEqual([]);
  }, 90_000);
});

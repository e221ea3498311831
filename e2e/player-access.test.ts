import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JoinLinks } from '../server/domain/sessions/join-links.js';
import { shot, startGameHarness, type GameHarness } from './game-support.js';
import { loginThroughUi } from './support/app.js';

/**
 * Joining with REQUIRE_SIGNED_JOIN on (issue 6 "Done when", SPEC §2/§4/§8 Player join): only the
 * link shown on the theatre's screen lets a phone in; everything else lands on 'Access Restricted'.
 */
const SECRET = 'player-access-test-secret-0123456789';
const RETURN_MESSAGE = 'Please scan the code on the big screen in Hall 3.';
const SCAN_TEXT = 'To play trivia, please scan the QR code displayed on the theater screen.';

const text = (page: Page, value: string) => page.getByText(value, { exact: true });

async function expectRestricted(page: Page, message: string): Promise<void> {
  await text(page, 'Access Restricted').waitFor();
  await text(page, message).waitFor();
  await text(page, SCAN_TEXT).waitFor();
  expect(await page.getByRole('button', { name: 'Join Game' }).count()).toBe(0);
}

describe('signed join links', () => {
  let h: GameHarness;
  let sessionId: string;
  beforeAll(async () => {
    h = await startGameHarness({ REQUIRE_SIGNED_JOIN: 'true', SECRET });
    ({ id: sessionId } = await h.api.seedSession({
      title: 'Matinee Quiz',
      returnMessage: RETURN_MESSAGE,
      items: [{ slide: 'join' }],
    }));
    await h.api.start(sessionId);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("without a signature, registering shows 'Access Restricted' with the session's return message", async () => {
    const { page } = await h.phone();
    await page.goto(`/player/${sessionId}`);
    await page.getByLabel('Your Name').fill('Nosig');
    await page.getByLabel('Email Address').fill('nosig@example.com');
    await page.getByRole('button', { name: 'Join Game' }).click();
    await expectRestricted(page, RETURN_MESSAGE);
    expect(await page.getByTestId('toast').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('player_id'))).toBeNull();
    await shot(page, 'phone-access-restricted');
  });

  it("the link on the display's join slide lets a phone in", async () => {
    const display = await h.display(sessionId);
    await text(display, 'Scan to Join!').waitFor();
    const link = await display.locator('canvas[data-join-url]').getAttribute('data-join-url');
    expect(link).toMatch(new RegExp(`^${h.server.baseUrl}/player/${sessionId}\\?t=\\d+&sig=[0-9a-f]{64}$`));

    const { page } = await h.phone();
    await page.goto(link!);
    await text(page, 'Matinee Quiz').waitFor();
    await text(page, 'Join the live trivia game! Enter your details to start playing.').waitFor();

    // The form's own checks first: both fields required, a valid email.
    await page.getByRole('button', { name: 'Join Game' }).click();
    await text(page, 'Please enter your name').waitFor();
    await text(page, 'Please enter your email address').waitFor();
    await page.getByLabel('Your Name').fill('  Sam  ');
    await page.getByLabel('Email Address').fill('sam-at-example');
    await page.getByRole('button', { name: 'Join Game' }).click();
    await text(page, 'Please enter a valid email address').waitFor();
    expect(await page.getByLabel('Your Name').getAttribute('maxlength')).toBe('50');
    await shot(page, 'phone-join-errors');

    // Held at the network so the pending label can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/player/register', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Email Address').fill('sam@example.com');
    await page.getByRole('button', { name: 'Join Game' }).click();
    const pending = page.getByRole('button', { name: 'Joining...' });
    await pending.waitFor();
    expect(await pending.isDisabled()).toBe(true);
    release();
    await page.waitForURL(`**/player/${sessionId}/game`);
    const stored = await page.evaluate(() => ({ id: localStorage.getItem('player_id'), data: JSON.parse(localStorage.getItem('player_data') ?? 'null') }));
    expect(stored.data).toMatchObject({ id: stored.id, name: 'Sam', email: 'sam@example.com', sessionId });
    expect(stored.data.playerToken).toEqual(expect.any(String));
    await page.getByTestId('player-score').waitFor();
  });

  it('the display renews its join link every minute, with its key', async () => {
    const page = await h.blankPage();
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/api/sessions/${sessionId}/join-url`) fetched.push(request.url());
    });
    const screen = await h.api.request<{ url: string; key: string }>('GET', `/api/admin/sessions/${sessionId}/screen-link`);
    await page.clock.install();
    // The page's minute starts when its fetch is answered: after `requestedAtMs` (the page's clock,
    // read while the request is held) and before `shownAtMs`. Counted from those, not from when the
    // test gets round to fast-forwarding: on a busy machine that came a second late, and a minute
    // had passed at "59 s".
    let requestedAtMs = Number.NaN;
    await page.route(`**/api/sessions/${sessionId}/join-url*`, async (route) => {
      if (Number.isNaN(requestedAtMs)) requestedAtMs = await page.evaluate(() => Date.now());
      await route.continue();
    });
    await page.goto(screen.url);
    await page.locator('canvas[data-join-url]').waitFor();
    const shownAtMs = await page.evaluate(() => Date.now());
    expect(fetched).toHaveLength(1);
    expect(new URL(fetched[0]!).searchParams.get('key')).toBe(screen.key);
    // Jumps to those times and stops there (firing what fell due): the renewal is due a minute
    // after the answer, so not by 59 s after the request, and by 61 s after the code showed.
    await page.clock.pauseAt(requestedAtMs + 59_000);
    expect(fetched).toHaveLength(1);
    await page.clock.pauseAt(shownAtMs + 61_000);
    await expect.poll(() => fetched.length).toBe(2);
  });

  it('a display opened without its key shows no join code (a photographed QR code mints no links)', async () => {
    const page = await h.blankPage();
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/sessions/${sessionId}/join-url`);
    await page.goto(`/display/${sessionId}`);
    expect((await refused).status()).toBe(401);
    await text(page, 'Scan to Join!').waitFor();
    expect(await page.locator('canvas[data-join-url]').count()).toBe(0);
  });

  it("the operator's Player QR Code dialog shows a signed link a phone can join with", async () => {
    const admin = await h.blankPage({ width: 1280, height: 800 });
    await loginThroughUi(admin, h.server);
    await admin.getByRole('article', { name: 'Session Matinee Quiz' }).getByRole('button', { name: 'QR Code' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Player QR Code' });
    const shown = dialog.getByTestId('join-link').filter({ hasText: '/player/' });
    await shown.waitFor();
    const link = await shown.innerText();
    expect(link).toMatch(new RegExp(`^${h.server.baseUrl}/player/${sessionId}\\?t=\\d+&sig=[0-9a-f]{64}$`));
    expect(await dialog.getByText(/hosted development environment/).count()).toBe(0);

    const { page } = await h.phone();
    await page.goto(link);
    await page.getByLabel('Your Name').fill('Operator Friend');
    await page.getByLabel('Email Address').fill('friend@example.com');
    await page.getByRole('button', { name: 'Join Game' }).click();
    await page.waitForURL(`**/player/${sessionId}/game`);
    await page.getByTestId('player-score').waitFor();
  });

  it("a tampered or expired signature shows 'Access Restricted' on load", async () => {
    const fresh = new JoinLinks(SECRET, 3600).create(sessionId).url;
    const tampered = fresh.replace(/sig=([0-9a-f])/, (_, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    const expired = new JoinLinks(SECRET, 3600, () => Date.now() - 2 * 3600_000).create(sessionId).url;
    for (const url of [tampered, expired]) {
      const { page } = await h.phone();
      await page.goto(url);
      await expectRestricted(page, RETURN_MESSAGE);
    }
  });

  it('a validation that cannot reach the server says so', async () => {
    const { page } = await h.phone();
    await page.route('**/validate-access', (route) => route.abort('internetdisconnected'));
    await page.goto(new JoinLinks(SECRET, 3600).create(sessionId).url);
    await expectRestricted(page, 'Unable to validate access. Please scan the QR code at the theater.');
  });

  it('a link to a finished game says the game has ended', async () => {
    const { id } = await h.api.seedSession({ title: 'Yesterday', items: [{ slide: 'intro' }] });
    await h.api.start(id);
    await h.api.stop(id);
    const { page } = await h.phone();
    await page.goto(new JoinLinks(SECRET, 3600).create(id).url);
    await expectRestricted(page, 'This game has ended. Thanks for playing!');
  });

  it('a registration failing without a message shows the default toast and keeps the form', async () => {
    const { page } = await h.phone();
    await page.route('**/api/player/register', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto(new JoinLinks(SECRET, 3600).create(sessionId).url);
    await page.getByLabel('Your Name').fill('Unlucky');
    await page.getByLabel('Email Address').fill('unlucky@example.com');
    await page.getByRole('button', { name: 'Join Game' }).click();
    await page.getByTestId('toast').getByText('Failed to join session. Please try again.').waitFor();
    await page.getByRole('button', { name: 'Join Game' }).waitFor();
    expect(page.url()).not.toContain('/game');
  });

  it('the game screen sends a phone without a stored player back to the join form', async () => {
    const { page } = await h.phone();
    await page.goto(`/player/${sessionId}/game`);
    await page.waitForURL(`**/player/${sessionId}`);
    await page.getByRole('button', { name: 'Join Game' }).waitFor();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughUi, startWebHarness, type WebHarness } from './support/app.js';
import { expectToast, seriousViolations } from './support/ui.js';

let h: WebHarness;
beforeAll(async () => {
  h = await startWebHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('admin login, redirect and logout', () => {
  it('shows the login card on / and /admin/login with the product name', async () => {
    const page = await h.newPage();
    for (const path of ['/', '/admin/login']) {
      await page.goto(path);
      await page.getByRole('heading', { name: 'Marquee' }).waitFor();
      expect(await page.getByText('Admin Dashboard Access').isVisible()).toBe(true);
      expect(await page.getByPlaceholder('Enter your username').isVisible()).toBe(true);
      expect(await page.getByPlaceholder('Enter your password').isVisible()).toBe(true);
      expect(await page.title()).toContain('Marquee');
    }
  });

  it('keeps the user on the login screen with a "Login failed" toast on wrong credentials', async () => {
    const page = await h.newPage();
    await page.goto('/admin/login');
    await page.getByPlaceholder('Enter your username').fill(h.server.adminUsername);
    await page.getByPlaceholder('Enter your password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login to Admin Dashboard' }).click();
    const text = await expectToast(page, 'Login failed');
    // The server's message is the description, not a raw status line.
    expect(text).not.toMatch(/^Login failed\s*401/);
    expect(text.length).toBeGreaterThan('Login failed'.length);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
    expect(await page.getByRole('button', { name: 'Login to Admin Dashboard' }).isEnabled()).toBe(true);
  });

  it("reads 'Logging in...' and is disabled while the call is pending", async () => {
    const page = await h.newPage();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/admin/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/admin/login');
    await page.getByPlaceholder('Enter your username').fill(h.server.adminUsername);
    await page.getByPlaceholder('Enter your password').fill(h.server.adminPassword);
    await page.getByRole('button', { name: 'Login to Admin Dashboard' }).click();
    const pending = page.getByRole('button', { name: 'Logging in...' });
    await pending.waitFor();
    expect(await pending.isDisabled()).toBe(true);
    release();
    await page.waitForURL('**/admin');
  });

  it("shows 'Error' / 'Failed to connect to server' when the server cannot be reached", async () => {
    const page = await h.newPage();
    await page.route('**/api/admin/login', (route) => route.abort('connectionrefused'));
    await page.goto('/admin/login');
    await page.getByPlaceholder('Enter your username').fill('someone');
    await page.getByPlaceholder('Enter your password').fill('something');
    await page.getByRole('button', { name: 'Login to Admin Dashboard' }).click();
    const text = await expectToast(page, 'Failed to connect to server');
    expect(text).toContain('Error');
    expect(await page.getByRole('button', { name: 'Login to Admin Dashboard' }).isEnabled()).toBe(true);
  });

  it('requires both fields before submitting', async () => {
    const page = await h.newPage();
    await page.goto('/admin/login');
    await page.getByRole('button', { name: 'Login to Admin Dashboard' }).click();
    const valid = await page.getByPlaceholder('Enter your username').evaluate((el) => (el as HTMLInputElement).validity.valid);
    expect(valid).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  });

  it('logs in, stores the token and user, and lands on the dashboard', async () => {
    const page = await h.newPage();
    await loginThroughUi(page, h.server);
    expect(new URL(page.url()).pathname).toBe('/admin');
    const stored = await page.evaluate(() => [localStorage.getItem('admin_token'), localStorage.getItem('admin_user')]);
    expect(stored[0]).toBeTruthy();
    expect(JSON.parse(stored[1]!)).toMatchObject({ username: h.server.adminUsername });
    for (const tab of ['Sessions', 'Questions', 'Media', 'Players', 'Auditoriums']) {
      expect(await page.getByRole('tab', { name: tab }).isVisible()).toBe(true);
    }
  });

  it('redirects /admin to the login screen without a stored token', async () => {
    const page = await h.newPage();
    await page.goto('/admin');
    await page.waitForURL('**/admin/login');
    await page.getByRole('button', { name: 'Login to Admin Dashboard' }).waitFor();
  });

  it('goes back to login when the stored token is no longer accepted', async () => {
    const page = await h.newPage();
    await page.goto('/admin/login');
    await page.evaluate(() => localStorage.setItem('admin_token', 'not-a-real-token'));
    await page.goto('/admin');
    await page.waitForURL('**/admin/login');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  });

  it('logs out: clears the token and user, revokes the token, and shows the login screen', async () => {
    const page = await h.newPage();
    await loginThroughUi(page, h.server);
    const token = await page.evaluate(() => localStorage.getItem('admin_token'));
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    expect(await page.evaluate(() => [localStorage.getItem('admin_token'), localStorage.getItem('admin_user')])).toEqual([
      null,
      null,
    ]);
    const res = await fetch(`${h.server.baseUrl}/api/admin/sessions`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    await page.goto('/admin');
    await page.waitForURL('**/admin/login');
  });

  it("shows 'Page Not Found' for unknown paths, and 'Go Home' leads to /", async () => {
    const page = await h.newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('button', { name: 'Go Home' }).click();
    await page.getByRole('button', { name: 'Login to Admin Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('has no serious or critical accessibility violations on the login screen', async () => {
    const page = await h.newPage();
    await page.goto('/admin/login');
    await page.getByRole('button', { name: 'Login to Admin Dashboard' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

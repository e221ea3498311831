import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/testing/server.js';
import { launchBrowser } from './browser.js';
import { closeHarness, track } from './teardown.js';

/**
 * One real server (fresh SQLite, built web app) and one headless Chromium per test file.
 * Each test gets a fresh browser context, so storage and cookies never leak between tests; it is
 * closed when the test passes (`track`).
 */
export interface WebHarness {
  server: TestServer;
  browser: Browser;
  api: SeedApi;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

export const LAPTOP = { width: 1280, height: 800 };
export const TABLET = { width: 820, height: 1180 };

export async function startWebHarness(opts: { env?: Record<string, string> } = {}): Promise<WebHarness> {
  const server = await startTestServer(opts);
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  const api = new SeedApi(server.baseUrl, server.adminUsername, server.adminPassword);
  return {
    server,
    browser,
    api,
    async newPage(viewport = LAPTOP) {
      const context = track(await browser.newContext({ viewport, baseURL: server.baseUrl }), contexts);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    },
    close: () => closeHarness(contexts, browser, server),
  };
}

/** Logs in through the login form, as an operator would, and waits for the dashboard. */
export async function loginThroughUi(page: Page, server: TestServer): Promise<void> {
  await page.goto('/admin/login');
  await page.getByPlaceholder('Enter your username').fill(server.adminUsername);
  await page.getByPlaceholder('Enter your password').fill(server.adminPassword);
  await page.getByRole('button', { name: 'Login to Admin Dashboard' }).click();
  await page.getByText('Admin Dashboard', { exact: true }).waitFor();
}

/**
 * Stores a token obtained over HTTP, then opens the dashboard: quicker than the form for setup.
 * The token goes into the origin's storage from `/healthz`, a JSON page: from the login page it
 * cost a whole start of the web app for every dashboard a test opens (about 30 in a run).
 */
export async function openDashboard(page: Page, api: SeedApi): Promise<void> {
  const { token, user } = await api.login();
  await page.goto('/healthz');
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem('admin_token', t);
      localStorage.setItem('admin_user', u);
    },
    [token, JSON.stringify(user)] as const,
  );
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Sessions' }).waitFor();
}

/** Test data goes in through the real HTTP API; assertions then look only at the page. */
export class SeedApi {
  private token: string | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly username: string,
    private readonly password: string,
  ) {}

  async login(): Promise<{ token: string; user: { id: string; username: string } }> {
    const res = await fetch(`${this.baseUrl}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: this.username, password: this.password }),
    });
    if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { token: string; user: { id: string; username: string } };
    this.token = body.token;
    return body;
  }

  async request<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    if (!this.token) await this.login();
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  createSession(body: { title: string } & Record<string, unknown>) {
    return this.request<{ id: string; title: string; status: string }>('POST', '/api/admin/sessions', body);
  }

  createQuestion(overrides: Partial<{ text: string; choices: string[]; correctIndex: number; points: number; timeLimitSeconds: number; categories: string[] }> = {}) {
    return this.request<{ id: string; text: string }>('POST', '/api/admin/questions', {
      text: 'Which film won the first Academy Award for Best Picture?',
      choices: ['Wings', 'Sunrise', 'The Jazz Singer', 'Metropolis'],
      correctIndex: 0,
      points: 10,
      timeLimitSeconds: 30,
      categories: [],
      mediaId: null,
      ...overrides,
    });
  }

  addQuestionToSession(sessionId: string, questionId: string) {
    return this.request('POST', `/api/admin/sessions/${sessionId}/questions`, { questionId });
  }

  registerPlayer(sessionId: string, name: string, email: string) {
    return this.request<{ id: string; name: string }>('POST', '/api/player/register', { sessionId, name, email });
  }

  createAuditorium(name: string) {
    return this.request<{ id: string; name: string }>('POST', '/api/admin/auditoriums', { name });
  }
}

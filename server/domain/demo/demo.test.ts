import { describe, expect, it } from 'vitest';
import { TestApi } from '../../testing/api.js';
import { createTestDatabase, DIALECTS } from '../../testing/databases.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { checkQuestion } from '../questions/import-rules.js';
import { DEMO_QUESTIONS, DEMO_THEME, DEMO_TITLE } from './demo-content.js';

const ON = { DEMO_CONTENT: 'true' };

async function adminApi(server: TestServer): Promise<TestApi> {
  const api = new TestApi(server);
  await api.login();
  return api;
}

async function demoSessions(api: TestApi): Promise<{ id: string; title: string; theme: object; status: string }[]> {
  return ((await api.get('/api/admin/sessions')).body as { id: string; title: string; theme: object; status: string }[]).filter(
    (s) => s.title === DEMO_TITLE,
  );
}

describe('the demo questions', () => {
  it('are valid questions with four different choices and distinct texts', () => {
    expect(DEMO_QUESTIONS.length).toBeGreaterThanOrEqual(8);
    for (const question of DEMO_QUESTIONS) {
      expect(checkQuestion(question)).toEqual({ question });
      expect(new Set(question.choices.map((c) => c.toLowerCase())).size).toBe(4);
    }
    expect(new Set(DEMO_QUESTIONS.map((q) => q.text)).size).toBe(DEMO_QUESTIONS.length);
    // The right answers are spread over the four positions, not always A.
    expect(new Set(DEMO_QUESTIONS.map((q) => q.correctIndex)).size).toBe(4);
  });
});

describe.each(DIALECTS)('the demo show on %s', (dialect) => {
  it('is created once on a first start, survives restarts without duplicates, and stays deleted', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const first = await startTestServer({ database, env: ON });
      let demoId: string;
      try {
        const api = await adminApi(first);
        const demos = await demoSessions(api);
        expect(demos).toHaveLength(1);
        demoId = demos[0]!.id;
        expect(demos[0]).toMatchObject({ status: 'draft', theme: DEMO_THEME });
        expect(first.server.demoSession).toEqual({ id: demoId, title: DEMO_TITLE, createdNow: true });

        const items = (await api.get(`/api/admin/sessions/${demoId}/items`)).body as { itemType: string; slideType: string | null; question: { text: string } | null }[];
        const slides = items.filter((i) => i.itemType === 'slide').map((i) => i.slideType);
        expect(new Set(slides)).toEqual(new Set(['intro', 'join', 'rules', 'leaderboard']));
        expect(items.filter((i) => i.itemType === 'question').map((i) => i.question!.text)).toEqual(DEMO_QUESTIONS.map((q) => q.text));
        expect(items.at(-1)!.slideType).toBe('leaderboard');
        expect(((await api.get('/api/admin/questions')).body as unknown[]).length).toBe(DEMO_QUESTIONS.length);
      } finally {
        await first.close();
      }

      const second = await startTestServer({ database, env: ON });
      try {
        const api = await adminApi(second);
        expect((await demoSessions(api)).map((s) => s.id)).toEqual([demoId]);
        expect(((await api.get('/api/admin/questions')).body as unknown[]).length).toBe(DEMO_QUESTIONS.length);
        expect(second.server.demoSession).toEqual({ id: demoId, title: DEMO_TITLE, createdNow: false });
        expect((await api.delete(`/api/admin/sessions/${demoId}`)).status).toBe(204);
        // Even with no questions left, the database is no longer "first start".
        for (const q of (await api.get('/api/admin/questions')).body as { id: string }[]) await api.delete(`/api/admin/questions/${q.id}`);
      } finally {
        await second.close();
      }

      const third = await startTestServer({ database, env: ON });
      try {
        const api = await adminApi(third);
        expect(await demoSessions(api)).toEqual([]);
        expect((await api.get('/api/admin/questions')).body).toEqual([]);
        expect(third.server.demoSession).toBeUndefined();
      } finally {
        await third.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('is skipped with DEMO_CONTENT=false, and never added to a database that already has sessions', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const off = await startTestServer({ database, env: { DEMO_CONTENT: 'false' } });
      try {
        const api = await adminApi(off);
        expect((await api.get('/api/admin/sessions')).body).toEqual([]);
        expect((await api.get('/api/admin/questions')).body).toEqual([]);
        expect(off.server.demoSession).toBeUndefined();
        expect((await api.post('/api/admin/sessions', { title: 'Our own show' })).status).toBe(201);
      } finally {
        await off.close();
      }
      const on = await startTestServer({ database, env: ON });
      try {
        const api = await adminApi(on);
        expect(((await api.get('/api/admin/sessions')).body as { title: string }[]).map((s) => s.title)).toEqual(['Our own show']);
        expect(on.server.demoSession).toBeUndefined();
      } finally {
        await on.close();
      }
    } finally {
      await database.drop();
    }
  });
});

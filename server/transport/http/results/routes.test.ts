// Longer than ~300 lines on purpose: one suite per dialect walks every results and export route (SPEC §7) on one seeded game.
import http from 'node:http';
import { parse } from 'csv-parse/sync';
import { describe, expect, it, vi } from 'vitest';
import type { Store } from '../../../storage/store.js';
import { EXPORT_PAGE_SIZE } from '../../../storage/results.js';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import { useAdminServer } from '../../../testing/hooks.js';
import type { TestServer } from '../../../testing/server.js';

const BOM = '\uFEFF';

/** Names a spreadsheet or a naive CSV writer would trip over. */
const HOSTILE = [
  'Ann "The Quizzer" O\'Neil',
  'Comma, Bob',
  'Line\nBreak Cid',
  '=HYPERLINK("http://evil.example","click")',
  '+44 Dan',
  '-Eve',
  '@Fay',
  '\tTab Gus',
  '\rCR Hal',
  'Émile 🎬🍿',
];

describe.each(DIALECTS)('results and CSV exports on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;
  let store: Store;

  useAdminServer(dialect, (s, a) => {
    server = s;
    api = a;
    store = s.server.deps.store;
  });

  let counter = 0;
  async function question(text: string, correctIndex = 1) {
    const res = await api.post('/api/admin/questions', {
      text,
      choices: ['Alpha', 'Bravo', '=Charlie', 'Delta'],
      correctIndex,
      points: 100,
      timeLimitSeconds: 20,
      categories: ['film'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }
  async function register(sessionId: string, name: string) {
    const res = await new TestApi(server).post('/api/player/register', { sessionId, name, email: `p${++counter}-${dialect}@example.com` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; name: string; email: string };
  }
  const iso = (ms: number) => new Date(ms).toISOString();

  /**
   * A played session: q1 asked twice (askings 1 and 3), q2 once (asking 2), q3 asked but nobody
   * answered (asking 4), q4 never asked. Players answer q1 and q2 with given choices and times.
   */
  async function playedSession(title: string, names: string[]) {
    const session = (await api.post('/api/admin/sessions', { title })).body;
    const q = [await question(`${title}: first?`), await question(`${title}: second?`, 0), await question(`${title}: third?`), await question(`${title}: fourth?`)];
    for (const id of q) expect((await api.post(`/api/admin/sessions/${session.id}/questions`, { questionId: id })).status).toBe(201);
    const players = [];
    for (const name of names) {
      // Registration refuses or normalises such names (DESIGN §15); rows written before those rules
      // may still hold them, so they are stored directly: the exports must survive them.
      const player = await register(session.id, 'Placeholder');
      await store.db.updateTable('players').set({ name }).where('id', '=', player.id).execute();
      players.push({ ...player, name });
    }
    const t0 = Date.parse('2026-11-20T20:00:00.000Z');
    await store.db.transaction().execute((trx) =>
      store.liveWrites.insertManyAskings(trx, [
        {
          sessionId: session.id,
          askings: [
            { asking: 1, questionId: q[0], askedAt: iso(t0) },
            { asking: 2, questionId: q[1], askedAt: iso(t0 + 60_000) },
            { asking: 3, questionId: q[0], askedAt: iso(t0 + 120_000) },
            { asking: 4, questionId: q[2], askedAt: iso(t0 + 180_000) },
          ],
        },
      ]),
    );
    return { session, q, players, t0 };
  }

  function answer(sessionId: string, playerId: string, questionId: string, asking: number, selectedIndex: number, correct: boolean, points: number, elapsedMs: number) {
    return { sessionId, playerId, questionId, asking, selectedIndex, isCorrect: correct, pointsEarned: points, elapsedMs, answeredAt: iso(Date.now()) };
  }

  it('gives the full leaderboard with shared ranks, and per question askings, answers, % correct, time and split', async () => {
    const { session, q, players, t0 } = await playedSession('Quiz Night', ['Ann', 'Bob', 'Cid', 'Dan']);
    const [ann, bob, cid, dan] = players;
    await store.scores.saveAnswers([
      answer(session.id, ann.id, q[0], 1, 1, true, 90, 4_000),
      answer(session.id, bob.id, q[0], 1, 1, true, 80, 8_000),
      answer(session.id, cid.id, q[0], 1, 2, false, 0, 3_000),
      answer(session.id, dan.id, q[0], 1, 0, false, 0, 9_000),
      answer(session.id, bob.id, q[1], 2, 0, true, 10, 1_000),
      answer(session.id, ann.id, q[0], 3, 3, false, 0, 2_000),
    ]);
    // Bob and Ann tie on 90; Ann got there first. Cid and Dan tie on 0.
    await store.scores.saveScores(session.id, [
      { playerId: ann.id, pointsTotal: 90, reachedAt: iso(t0 + 4_000) },
      { playerId: bob.id, pointsTotal: 90, reachedAt: iso(t0 + 61_000) },
      { playerId: cid.id, pointsTotal: 0, reachedAt: iso(t0 + 3_000) },
      { playerId: dan.id, pointsTotal: 0, reachedAt: iso(t0 + 9_000) },
    ]);

    const res = await api.get(`/api/admin/sessions/${session.id}/results`);
    expect(res.status).toBe(200);
    expect(res.body.session).toEqual({ id: session.id, title: 'Quiz Night', status: 'draft' });
    expect(res.body.leaderboard).toEqual([
      { rank: 1, player: { id: ann.id, name: 'Ann', email: ann.email }, pointsTotal: 90, answered: 2, correct: 1 },
      { rank: 1, player: { id: bob.id, name: 'Bob', email: bob.email }, pointsTotal: 90, answered: 2, correct: 2 },
      { rank: 3, player: { id: cid.id, name: 'Cid', email: cid.email }, pointsTotal: 0, answered: 1, correct: 0 },
      { rank: 3, player: { id: dan.id, name: 'Dan', email: dan.email }, pointsTotal: 0, answered: 1, correct: 0 },
    ]);
    expect(res.body.questions.map((x: any) => [x.text, x.askings, x.answers, x.correct, x.averageMs, x.distribution])).toEqual([
      ['Quiz Night: first?', 2, 5, 2, 5_200, [1, 2, 1, 1]],
      ['Quiz Night: second?', 1, 1, 1, 1_000, [1, 0, 0, 0]],
      ['Quiz Night: third?', 1, 0, 0, null, [0, 0, 0, 0]],
      ['Quiz Night: fourth?', 0, 0, 0, null, [0, 0, 0, 0]],
    ]);
    expect(res.body.questions[0]).toMatchObject({ correctIndex: 1, choices: ['Alpha', 'Bravo', '=Charlie', 'Delta'] });

    const annAnswers = await api.get(`/api/admin/sessions/${session.id}/results/players/${ann.id}`);
    expect(annAnswers.status).toBe(200);
    expect(annAnswers.body.player).toEqual({ id: ann.id, name: 'Ann', email: ann.email });
    expect(annAnswers.body.answers.map((a: any) => [a.text, a.asking, a.choice, a.isCorrect, a.pointsEarned, a.answerMs])).toEqual([
      ['Quiz Night: first?', 1, 'Bravo', true, 90, 4_000],
      ['Quiz Night: first?', 3, 'Delta', false, 0, 2_000],
    ]);
  });

  it('answers an empty session, and 404 / 401 / 400 for unknown ids, no token and bad ids', async () => {
    const empty = (await api.post('/api/admin/sessions', { title: 'Nobody came' })).body;
    expect((await api.get(`/api/admin/sessions/${empty.id}/results`)).body).toEqual({
      session: { id: empty.id, title: 'Nobody came', status: 'draft' },
      leaderboard: [],
      questions: [],
    });
    const csv = await api.get(`/api/admin/sessions/${empty.id}/results.csv`);
    expect(csv.status).toBe(200);
    expect(csv.body).toBe(`${BOM}rank,name,email,points,answered,correct\r\n`);

    for (const path of ['results', 'results.csv', 'answers.csv', 'results/players/nope']) {
      const res = await api.get(`/api/admin/sessions/no-such-session/${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body.message).toBe('Session not found');
    }
    expect((await api.get(`/api/admin/sessions/${empty.id}/results/players/nobody`)).body).toEqual({ message: 'Player not found' });
    expect((await api.get('/api/admin/sessions/bad%00id/results')).status).toBe(400);
    const anonymous = new TestApi(server);
    for (const path of [`/api/admin/sessions/${empty.id}/results`, `/api/admin/sessions/${empty.id}/answers.csv`, '/api/admin/players.csv']) {
      expect((await anonymous.get(path)).status, path).toBe(401);
    }
  });

  it('exports hostile names as RFC 4180 CSV with a BOM, formulas neutralised, every byte back intact', async () => {
    const { session, q, players, t0 } = await playedSession('Hostile, "Night"', HOSTILE);
    await store.scores.saveAnswers(players.map((p, i) => answer(session.id, p.id, q[0], 1, i % 4, i % 4 === 1, i % 4 === 1 ? 100 - i : 0, 1_000 + i)));
    await store.scores.saveScores(
      session.id,
      players.map((p, i) => ({ playerId: p.id, pointsTotal: i % 4 === 1 ? 100 - i : 0, reachedAt: iso(t0 + i) })),
    );

    const results = await api.get(`/api/admin/sessions/${session.id}/results.csv`);
    expect(results.status).toBe(200);
    expect(results.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(results.headers['content-disposition']).toBe('attachment; filename="results-hostile-night.csv"');
    const text = results.body as string;
    expect(text.startsWith(`${BOM}rank,name,email,points,answered,correct\r\n`)).toBe(true);
    const rows: string[][] = parse(text.slice(1), { relax_column_count: false });
    expect(rows[0]).toEqual(['rank', 'name', 'email', 'points', 'answered', 'correct']);
    const neutral = (name: string) => (/^[=+\-@\t\r]/.test(name) ? `'${name}` : name);
    const byName = new Map(rows.slice(1).map((r) => [r[1], r]));
    expect(rows).toHaveLength(HOSTILE.length + 1);
    for (const [i, name] of HOSTILE.entries()) {
      const row = byName.get(neutral(name));
      expect(row, name).toBeDefined();
      expect(row![2]).toBe(players[i].email);
      expect(row![3]).toBe(String(i % 4 === 1 ? 100 - i : 0));
    }
    // No cell a spreadsheet would run: every one starting with a formula character was prefixed.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // Ranks: 1, 2, 3 for the scorers (99, 95, 91 points) and a shared 4 for the seven on 0.
    expect(rows.slice(1).map((r) => r[0])).toEqual(['1', '2', '3', '4', '4', '4', '4', '4', '4', '4']);

    const answers = await api.get(`/api/admin/sessions/${session.id}/answers.csv`);
    expect(answers.headers['content-disposition']).toBe('attachment; filename="answers-hostile-night.csv"');
    const answerRows: string[][] = parse((answers.body as string).slice(1));
    expect(answerRows[0]).toEqual(['name', 'email', 'question', 'asking', 'choice', 'correct', 'points', 'answer_ms']);
    expect(answerRows).toHaveLength(HOSTILE.length + 1);
    const cid = answerRows.find((r) => r[0] === 'Line\nBreak Cid')!;
    expect(cid).toEqual(['Line\nBreak Cid', players[2].email, 'Hostile, "Night": first?', '1', 'C', 'false', '0', '1002']);
    const formula = answerRows.find((r) => r[0] === `'${HOSTILE[3]}`)!;
    expect(formula.slice(4)).toEqual(['D', 'false', '0', '1003']);
    expect(answerRows.find((r) => r[0] === 'Émile 🎬🍿')).toBeDefined();
    // The raw bytes: the quote doubled inside a quoted cell, the emoji in UTF-8.
    expect(answers.body).toContain('"Ann ""The Quizzer"" O\'Neil"');
    expect(Buffer.from(answers.body as string, 'utf8').includes(Buffer.from('🎬', 'utf8'))).toBe(true);

    const all = await api.get('/api/admin/players.csv');
    expect(all.status).toBe(200);
    expect(all.headers['content-disposition']).toBe('attachment; filename="players.csv"');
    const playerRows: string[][] = parse((all.body as string).slice(1));
    expect(playerRows[0]).toEqual(['name', 'email', 'session', 'points', 'registered_at']);
    const gus = playerRows.find((r) => r[1] === players[7].email)!;
    expect(gus).toEqual([`'\tTab Gus`, players[7].email, 'Hostile, "Night"', '0', expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);
  });

  it('lists a player per game they joined (an email joining two games is two players), with no session when they never answered', async () => {
    const first = await playedSession('First show', ['Ivy']);
    const ivy = first.players[0];
    const second = (await api.post('/api/admin/sessions', { title: '@Second show' })).body;
    const again = await new TestApi(server).post('/api/player/register', { sessionId: second.id, name: 'Ivy', email: ivy.email });
    expect(again.body.id).not.toBe(ivy.id);
    const newcomer = await register(second.id, 'Jon');
    await store.scores.saveScores(first.session.id, [{ playerId: ivy.id, pointsTotal: 40, reachedAt: iso(first.t0) }]);
    await store.scores.saveScores(second.id, [{ playerId: again.body.id, pointsTotal: 75, reachedAt: iso(first.t0) }]);
    const rows: string[][] = parse(((await api.get('/api/admin/players.csv')).body as string).slice(1));
    expect(rows.filter((r) => r[1] === ivy.email).map((r) => [r[0], r[2], r[3]])).toEqual([
      ['Ivy', 'First show', '40'],
      ['Ivy', "'@Second show", '75'],
    ]);
    expect(rows.filter((r) => r[1] === newcomer.email).map((r) => [r[0], r[2], r[3]])).toEqual([['Jon', '', '']]);
  });

  it('documents every results route in the OpenAPI', async () => {
    const paths = (await api.get('/api/docs/json')).body.paths;
    const results = paths['/api/admin/sessions/{id}/results'].get;
    expect(results.tags).toEqual(['results']);
    expect(Object.keys(results.responses['200'].content['application/json'].schema.properties)).toEqual(['session', 'leaderboard', 'questions']);
    expect(paths['/api/admin/sessions/{id}/results/players/{playerId}'].get.responses['404']).toBeDefined();
    expect(paths['/api/admin/sessions/{id}/results.csv'].get.description).toContain('rank,name,email,points,answered,correct');
    expect(paths['/api/admin/sessions/{id}/answers.csv'].get.description).toContain('name,email,question,asking,choice,correct,points,answer_ms');
    expect(paths['/api/admin/players.csv'].get.description).toContain('name,email,session,points,registered_at');
  });

  it('streams 100,000 answers page by page, never more than one page read at a time', async () => {
    const PLAYERS = 1_000;
    const ASKINGS = 100;
    const session = (await api.post('/api/admin/sessions', { title: 'Big night' })).body;
    const qid = await question('Big night: how many?');
    const now = iso(Date.now());
    const playerIds: string[] = [];
    await store.db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: PLAYERS }, (_, i) => ({
        id: `big-${dialect}-${String(i).padStart(4, '0')}`,
        name: i % 10 === 0 ? `=cmd|' /C calc'!A${i}` : `Player ${i}, "the ${i}th"`,
        email: `big${i}-${dialect}@example.com`,
        email_key: `big${i}-${dialect}@example.com`,
        created_at: now,
      }));
      for (let i = 0; i < rows.length; i += 250) await trx.insertInto('players').values(rows.slice(i, i + 250)).execute();
      playerIds.push(...rows.map((r) => r.id));
    });
    const answers = [];
    for (let asking = 1; asking <= ASKINGS; asking++) {
      for (const [i, playerId] of playerIds.entries()) {
        answers.push(answer(session.id, playerId, qid, asking, (i + asking) % 4, (i + asking) % 4 === 1, (i + asking) % 4 === 1 ? 50 : 0, (i * 7 + asking) % 20_000));
      }
    }
    await store.scores.saveAnswers(answers);
    answers.length = 0;

    const pageSizes: number[] = [];
    // Wrap the real page reader to see every page the export reads.
    const realPage = store.results.answerPage.bind(store.results);
    const pageSpy = vi.spyOn(store.results, 'answerPage').mockImplementation(async (...args) => {
      const page = await realPage(...args);
      pageSizes.push(page.length);
      return page;
    });

    try {
      let lines = 0;
      let bytes = 0;
      let tail = '';
      let formulaCells = 0;
      let transferEncoding: string | undefined;
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.get(`${server.baseUrl}/api/admin/sessions/${session.id}/answers.csv`, { headers: { authorization: `Bearer ${api.token}` } }, (res) => {
          res.setEncoding('utf8');
          transferEncoding = res.headers['transfer-encoding'];
          res.on('data', (chunk: string) => {
            bytes += chunk.length;
            // Count records without keeping the file: every record ends with CRLF, none of these cells holds one.
            const text = tail + chunk;
            const parts = text.split('\r\n');
            tail = parts.pop()!;
            lines += parts.length;
            for (const line of parts) if (line.startsWith("\"'=cmd") || line.startsWith("'=cmd")) formulaCells++;
          });
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        });
        request.on('error', reject);
      });
      expect(status).toBe(200);
      expect(tail).toBe('');
      expect(lines).toBe(PLAYERS * ASKINGS + 1);
      expect(formulaCells).toBe((PLAYERS / 10) * ASKINGS);
      expect(bytes).toBeGreaterThan(5_000_000);
      // Memory stays bounded: the rows were read in pages of at most EXPORT_PAGE_SIZE, and the file
      // went out as a stream (chunked, no length known up front). csv.test.ts checks the backpressure.
      expect(Math.max(...pageSizes)).toBeLessThanOrEqual(EXPORT_PAGE_SIZE);
      expect(pageSizes.length).toBeGreaterThanOrEqual((PLAYERS * ASKINGS) / EXPORT_PAGE_SIZE);
      expect(pageSizes.reduce((a, b) => a + b, 0)).toBe(PLAYERS * ASKINGS);
      expect(transferEncoding).toBe('chunked');
    } finally {
      pageSpy.mockRestore();
    }
  }, 180_000);
});

/**
 * Three real instances behind nginx: a stale owner (SIGSTOP until its lease ran out, then SIGCONT)
 * writes nothing and sends nothing, and a rolling restart (SIGTERM, start again, one after the
 * other) of all three during a game loses no confirmed answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, adminToken, freePort, startChildServer } from '../../testing/child-server.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../testing/databases.js';
import { TEST_REDIS_URL, dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { waitUntil } from './testing/cluster.js';
import { type HttpGame, Phone, api, createHttpGame } from './testing/http-game.js';
import { NGINX_TRUST_PROXY, type TestNginx, startNginx } from './testing/nginx.js';

describe('stale owner and rolling restart behind nginx (3 child processes)', () => {
  const redis = testRedis();
  const prefix = uniquePrefix();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-cluster-'));
  let database: TestDatabase;
  const ports = new Map<string, number>();
  const nodes = new Map<string, ChildServer>();
  let nginx: TestNginx;
  let db: pg.Client;

  const start = async (name: string) => {
    nodes.set(name, await startChildServer(database, ports.get(name)!, path.join(logDir, `${name}.log`), {
      REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, INSTANCE_ID: name, TRUST_PROXY: NGINX_TRUST_PROXY,
    }));
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    for (const name of ['node-1', 'node-2', 'node-3']) {
      ports.set(name, await freePort());
      await start(name);
    }
    nginx = await startNginx([...ports.values()].map((p) => `127.0.0.1:${p}`));
    db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await nginx?.close();
    for (const node of nodes.values()) {
      node.process.kill('SIGCONT');
      await node.kill('SIGKILL');
    }
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await database?.drop();
    if (!process.env.KEEP_CLUSTER_LOGS) fs.rmSync(logDir, { recursive: true, force: true });
    else console.log(`cluster logs kept in ${logDir}`);
  });

  const ownerOf = async (sessionId: string) => (await redis.get(`${prefix}:lease:${sessionId}`))?.split(':')[0] ?? null;
  const rows = async (sql: string, sessionId: string) => (await db.query(sql.replaceAll('§', database.pgSchema!), [sessionId])).rows;

  async function setUp(questions: { text: string; correctIndex: number; points: number; timeLimitSeconds: number }[], players: number) {
    const token = await adminToken(nginx.baseUrl);
    const game: HttpGame = await createHttpGame(nginx.baseUrl, token, questions, players);
    const display = new Phone(nginx.baseUrl, { type: 'display', sessionId: game.sessionId });
    const phones = game.players.map((p) => new Phone(nginx.baseUrl, { type: 'player', sessionId: game.sessionId, playerId: p.id, playerToken: p.playerToken }));
    await display.open();
    for (const phone of phones) await phone.open();
    return { token, game, display, phones };
  }

  /** Sends until accepted: a socket that is rejoining a new owner may be told to try again. */
  async function answer(phone: Phone, questionId: string, selectedIndex: number) {
    for (let attempt = 0; ; attempt++) {
      const from = phone.all.length;
      phone.send({ type: 'submit_answer', questionId, selectedIndex });
      const reply = await phone.waitFor((m) => phone.all.indexOf(m) >= from && (m.type === 'answer_accepted' || m.type === 'error'), 30_000);
      if (reply.type === 'answer_accepted' || attempt > 50) return reply;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('a stale owner (SIGSTOP past its lease, then SIGCONT) writes nothing and sends nothing', { timeout: 180_000 }, async () => {
    const { token, game, display, phones } = await setUp([{ text: 'Stale?', correctIndex: 2, points: 100, timeLimitSeconds: 8 }], 3);
    await api(nginx.baseUrl, 'POST', `/api/admin/sessions/${game.sessionId}/start`, token, {});
    const [q] = game.questions;
    for (const phone of phones) await phone.waitFor((m) => m.type === 'session_state' && m.phase === 'question');
    await answer(phones[0], q.id, 2);
    const stale = (await ownerOf(game.sessionId))!;
    nodes.get(stale)!.process.kill('SIGSTOP');
    let storedBefore: unknown[], scoresBefore: unknown[], liveBefore: string;
    try {
      await waitUntil('another instance took the lease', async () => ![null, stale].includes(await ownerOf(game.sessionId)), 20_000);
      // The question's deadline passes on the new owner (its scores are stored); the paused one
      // still has it pending. Sockets held by the paused process hear nothing meanwhile.
      await waitUntil('the new owner closed the question', async () => (await rows('select live_state from §.sessions where id = $1', game.sessionId))[0].live_state?.includes('"reveal"') ?? false, 60_000);
      storedBefore = await rows('select player_id, points_earned from §.answers where session_id = $1', game.sessionId);
      scoresBefore = await rows('select player_id, points_total, reached_at from §.scores where session_id = $1 order by player_id', game.sessionId);
      [{ live_state: liveBefore }] = await rows('select live_state from §.sessions where id = $1', game.sessionId);
    } finally {
      nodes.get(stale)!.process.kill('SIGCONT');
    }
    // It finds out (its lease renewal or its write), and stops running the game.
    const log = path.join(logDir, `${stale}.log`);
    await waitUntil('the stale owner noticed', () => /lease taken by another instance|refused by the epoch fence/.test(fs.readFileSync(log, 'utf8')), 30_000);
    expect(await rows('select player_id, points_earned from §.answers where session_id = $1', game.sessionId)).toEqual(storedBefore);
    expect(await rows('select player_id, points_total, reached_at from §.scores where session_id = $1 order by player_id', game.sessionId)).toEqual(scoresBefore);
    const [{ live_state: liveAfter, owner_epoch: epoch }] = await rows('select live_state, owner_epoch from §.sessions where id = $1', game.sessionId);
    expect(epoch).toBe(2);
    // The snapshot may only have moved on under the new owner (its epoch), never back.
    if (liveAfter !== liveBefore) expect(JSON.parse(liveAfter).phaseStartedAtMs).toBeGreaterThanOrEqual(JSON.parse(liveBefore).phaseStartedAtMs);
    // Exactly one result per phone that answered, one question_end per screen: nothing from the stale
    // owner. (A socket held by the paused instance gets the new owner's frames once it runs again.)
    await phones[0].waitFor((m) => m.type === 'answer_result', 30_000);
    await display.waitFor((m) => m.type === 'question_end', 30_000);
    expect(phones[0].all.filter((m) => m.type === 'answer_result')).toHaveLength(1);
    expect(display.all.filter((m) => m.type === 'question_end')).toHaveLength(1);
    expect(await ownerOf(game.sessionId)).not.toBe(stale);
    for (const phone of [...phones, display]) await phone.close();
    await api(nginx.baseUrl, 'POST', `/api/admin/sessions/${game.sessionId}/stop`, token, {});
  });

  it('a rolling restart of all three during a game loses no confirmed answer', { timeout: 240_000 }, async () => {
    const { token, game, display, phones } = await setUp(
      [{ text: 'Rolling one', correctIndex: 1, points: 100, timeLimitSeconds: 60 }, { text: 'Rolling two', correctIndex: 0, points: 100, timeLimitSeconds: 60 }],
      6,
    );
    await api(nginx.baseUrl, 'POST', `/api/admin/sessions/${game.sessionId}/start`, token, {});
    const [q1, q2] = game.questions;
    for (const phone of phones) await phone.waitFor((m) => m.type === 'session_state' && m.phase === 'question');
    const choices1 = [1, 1, 0, 1, 2, 1];
    const restart = async (name: string) => {
      const node = nodes.get(name)!;
      // Paused first (it was SIGSTOPped and resumed in the test before): a deploy sends SIGTERM.
      const exit = await node.kill('SIGTERM');
      expect(exit.code).toBe(0);
      await start(name);
    };
    // Answers and restarts interleaved: two answers, restart one instance, and so on.
    for (const [step, name] of ['node-1', 'node-2', 'node-3'].entries()) {
      for (const i of [step * 2, step * 2 + 1]) expect((await answer(phones[i], q1.id, choices1[i])).type).toBe('answer_accepted');
      await restart(name);
    }
    const results1 = await Promise.all(phones.map((p) => p.waitFor((m) => m.type === 'answer_result' && m.questionId === q1.id, 90_000)));
    expect(results1.map((r) => r.isCorrect)).toEqual(choices1.map((c) => c === 1));
    for (const phone of phones) await phone.waitFor((m) => m.type === 'session_state' && m.phase === 'question' && m.question?.id === q2.id, 90_000);
    for (const [i, phone] of phones.entries()) expect((await answer(phone, q2.id, i % 2)).type).toBe('answer_accepted');
    const results2 = await Promise.all(phones.map((p) => p.waitFor((m) => m.type === 'answer_result' && m.questionId === q2.id, 90_000)));

    const answers = await rows('select player_id, question_id, is_correct, points_earned, elapsed_ms from §.answers where session_id = $1', game.sessionId);
    expect(answers).toHaveLength(12);
    for (const row of answers) expect(row.points_earned).toBe(row.is_correct ? Math.round(100 * (1 - row.elapsed_ms / 120_000)) : 0);
    const scores = await rows('select player_id, points_total from §.scores where session_id = $1', game.sessionId);
    for (const [i, p] of game.players.entries()) {
      const total = answers.filter((a) => a.player_id === p.id).reduce((sum, a) => sum + a.points_earned, 0);
      expect(results2[i].newScore).toBe(total);
      expect(scores.find((s) => s.player_id === p.id)?.points_total ?? 0).toBe(total);
      expect(results1[i].pointsEarned + results2[i].pointsEarned).toBe(total);
    }
    await display.waitFor((m) => m.type === 'question_end' && m.questionId === q2.id, 60_000);
    for (const phone of [...phones, display]) await phone.close();
  });
});

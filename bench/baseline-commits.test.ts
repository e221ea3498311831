// The baseline with BASELINE_COMMITS=1 (bench/baseline-server.ts): a confirmation and a result are
// commits there too, so the committed rows must be in its database when a phone hears either. And
// what a phone hears at a question's close: the same messages as from Marquee.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket } from '../server/transport/ws/testing/client.js';
import { registerPlayers, setUpGame } from './api.js';
import { ADMIN_PASSWORD, type RunningTarget, startTarget } from './targets.js';

describe('the baseline with BASELINE_COMMITS=1', () => {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-baseline-commits-'));
  let target: RunningTarget;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    target = await startTarget('baseline', { logDir, label: 'commits', openFiles: 256, env: { BASELINE_COMMITS: '1' } });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.ws.terminate();
    await target?.stop();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  /** A started session of `questions` questions with its admin and `players` phones connected. */
  async function game(questions: number, players: number, tag: string) {
    const { baseUrl } = target;
    const [sessionId] = (await setUpGame(baseUrl, ADMIN_PASSWORD, 1, questions)).sessionIds;
    const registered = await registerPlayers(baseUrl, [sessionId], players, players, tag);
    const admin = await TestSocket.open(baseUrl, { sessionId, type: 'admin' });
    const phones = await Promise.all(registered.map((p) => TestSocket.open(baseUrl, { sessionId, type: 'player', playerId: p.id, playerToken: p.playerToken })));
    sockets.push(admin, ...phones);
    return { sessionId, registered, admin, phones };
  }

  /** The operator presses Next; resolves with the id of the question the phone is then shown (other than `after`). */
  async function pressNext(admin: TestSocket, phone: TestSocket, after?: string): Promise<string> {
    const shown = phone.next('session_state', (m) => m.phase === 'question' && m.question.id !== after);
    admin.send({ type: 'admin_next_question' });
    return (await shown).question.id as string;
  }

  it('confirms an answer and sends its result only once the answer and the score are committed', async () => {
    const { sessionId, registered, admin, phones } = await game(1, 2, 'commits');
    const db = new Database(path.join(target.dataDir, 'baseline.db'), { readonly: true });
    try {
      const shown = phones.map((phone) => phone.next('session_state', (m) => m.phase === 'question'));
      admin.send({ type: 'admin_next_question' });
      const questionId = (await Promise.all(shown))[0].question.id as string;

      // The first answer: confirmed only once its row is committed (read from another connection).
      const accepted = phones[0].next('answer_accepted');
      phones[0].send({ type: 'submit_answer', questionId, selectedIndex: 0 });
      await accepted;
      expect(db.prepare('SELECT player_id, selected_index FROM answers WHERE session_id = ?').all(sessionId)).toEqual([{ player_id: registered[0].id, selected_index: 0 }]);

      // The last answer ends the question: the results come after the scores are committed.
      const result = phones[1].next('answer_result');
      phones[1].send({ type: 'submit_answer', questionId, selectedIndex: 2 });
      expect(await result).toMatchObject({ isCorrect: false, pointsEarned: 0 });
      const scores = db.prepare('SELECT player_id, points FROM scores WHERE session_id = ? ORDER BY points DESC').all(sessionId) as { player_id: string; points: number }[];
      expect(scores.map((s) => s.player_id)).toEqual([registered[0].id, registered[1].id]);
      expect(scores[0].points).toBeGreaterThan(0);
      expect(scores[1].points).toBe(0);
    } finally {
      db.close();
    }
  }, 30_000);

  it("sends a phone at a question's close what Marquee sends: its result, question_end and the leaderboard, no state", async () => {
    const { admin, phones } = await game(1, 1, 'close');
    const [phone] = phones;
    const questionId = await pressNext(admin, phone);
    const from = phone.messages.length;
    const board = phone.next('leaderboard_update');
    phone.send({ type: 'submit_answer', questionId, selectedIndex: 1 });
    await board;
    // Anything sent with the close would be here by now; the reveal's own end is 5 s away.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(phone.types(from)).toEqual(['answer_accepted', 'answer_result', 'question_end', 'leaderboard_update']);
  }, 30_000);

  it('sends at the close what DESIGN §10 adds: the answers per choice, and each result with its rank among the players ranked', async () => {
    const { admin, phones } = await game(1, 3, 'ranks');
    const questionId = await pressNext(admin, phones[0]);
    const results = phones.map((phone) => phone.next('answer_result'));
    const end = phones[0].next('question_end');
    // The bench's questions have choice 0 right: one right answer, two wrong ones tied on 0 points.
    for (const [i, selectedIndex] of [0, 2, 2].entries()) {
      const accepted = phones[i].next('answer_accepted');
      phones[i].send({ type: 'submit_answer', questionId, selectedIndex });
      await accepted;
    }
    expect((await end).distribution).toEqual([1, 0, 2, 0]);
    expect((await Promise.all(results)).map((r) => [r.pointsEarned > 0, r.rank, r.players])).toEqual([
      [true, 1, 3],
      [false, 2, 3],
      [false, 2, 3],
    ]);
  }, 30_000);

  it('ends an open question before the next one starts when the operator presses Next early', async () => {
    const { admin, phones } = await game(2, 1, 'early-next');
    const [phone] = phones;
    const firstId = await pressNext(admin, phone);
    const secondId = await pressNext(admin, phone, firstId);
    const seen = phone.messages.flatMap((m) =>
      m.type === 'question_end' ? [`end ${m.questionId}`] : m.type === 'session_state' && m.phase === 'question' ? [`open ${m.question?.id}`] : [],
    );
    expect(seen).toEqual([`open ${firstId}`, `end ${firstId}`, `open ${secondId}`]);
  }, 30_000);
});

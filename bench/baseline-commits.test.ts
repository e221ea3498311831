// The baseline with BASELINE_COMMITS=1 (bench/baseline-server.ts): a confirmation and a result are
// commits there too, so the committed rows must be in its database when a phone hears either.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPlayers, setUpGame } from './api.js';
import { ADMIN_PASSWORD, type RunningTarget, startTarget } from './targets.js';

/** Resolves with the first message of `type` (parsed), failing after 10 s. */
function next(ws: WebSocket, type: string, where: (message: Record<string, unknown>) => boolean = () => true): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within 10 s`)), 10_000);
    const listener = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.type !== type || !where(message)) return;
      clearTimeout(timer);
      ws.off('message', listener);
      resolve(message);
    };
    ws.on('message', listener);
  });
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

describe('the baseline with BASELINE_COMMITS=1', () => {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-baseline-commits-'));
  let target: RunningTarget;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    target = await startTarget('baseline', { logDir, label: 'commits', openFiles: 256, env: { BASELINE_COMMITS: '1' } });
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await target?.stop();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  it('confirms an answer and sends its result only once the answer and the score are committed', async () => {
    const { baseUrl, dataDir } = target;
    const { sessionIds } = await setUpGame(baseUrl, ADMIN_PASSWORD, 1, 1);
    const [sessionId] = sessionIds;
    const players = await registerPlayers(baseUrl, sessionIds, 2, 2, 'commits');
    const ws = (query: Record<string, string>) => `${baseUrl.replace(/^http/, 'ws')}/ws?${new URLSearchParams({ sessionId, ...query })}`;
    const admin = await open(ws({ type: 'admin' }));
    const phones = await Promise.all(players.map((p) => open(ws({ type: 'player', playerId: p.id, playerToken: p.playerToken }))));
    sockets.push(admin, ...phones);
    const db = new Database(path.join(dataDir, 'baseline.db'), { readonly: true });
    try {
      const questionShown = phones.map((phone) => next(phone, 'session_state', (m) => m.phase === 'question'));
      admin.send(JSON.stringify({ type: 'admin_next_question' }));
      const [state] = await Promise.all(questionShown);
      const questionId = (state.question as { id: string }).id;

      // The first answer: confirmed only once its row is committed (read from another connection).
      const accepted = next(phones[0], 'answer_accepted');
      phones[0].send(JSON.stringify({ type: 'submit_answer', questionId, selectedIndex: 0 }));
      await accepted;
      expect(db.prepare('SELECT player_id, selected_index FROM answers WHERE session_id = ?').all(sessionId)).toEqual([{ player_id: players[0].id, selected_index: 0 }]);

      // The last answer ends the question: the results come after the scores are committed.
      const result = next(phones[1], 'answer_result');
      phones[1].send(JSON.stringify({ type: 'submit_answer', questionId, selectedIndex: 2 }));
      expect(await result).toMatchObject({ isCorrect: false, pointsEarned: 0 });
      const scores = db.prepare('SELECT player_id, points FROM scores WHERE session_id = ? ORDER BY points DESC').all(sessionId) as { player_id: string; points: number }[];
      expect(scores.map((s) => s.player_id)).toEqual([players[0].id, players[1].id]);
      expect(scores[0].points).toBeGreaterThan(0);
      expect(scores[1].points).toBe(0);
    } finally {
      db.close();
    }
  }, 30_000);

  it('ends an open question before the next one starts when the operator presses Next early', async () => {
    const { baseUrl } = target;
    const { sessionIds } = await setUpGame(baseUrl, ADMIN_PASSWORD, 1, 2);
    const [sessionId] = sessionIds;
    const [player] = await registerPlayers(baseUrl, sessionIds, 1, 1, 'early-next');
    const ws = (query: Record<string, string>) => `${baseUrl.replace(/^http/, 'ws')}/ws?${new URLSearchParams({ sessionId, ...query })}`;
    const admin = await open(ws({ type: 'admin' }));
    const phone = await open(ws({ type: 'player', playerId: player.id, playerToken: player.playerToken }));
    sockets.push(admin, phone);
    const seen: string[] = [];
    phone.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; phase?: string; question?: { id: string } | null; questionId?: string };
      if (message.type === 'question_end') seen.push(`end ${message.questionId}`);
      if (message.type === 'session_state' && message.phase === 'question') seen.push(`open ${message.question?.id}`);
    });
    const first = next(phone, 'session_state', (m) => m.phase === 'question');
    admin.send(JSON.stringify({ type: 'admin_next_question' }));
    const firstId = ((await first).question as { id: string }).id;
    const second = next(phone, 'session_state', (m) => m.phase === 'question' && (m.question as { id: string }).id !== firstId);
    admin.send(JSON.stringify({ type: 'admin_next_question' }));
    const secondId = ((await second).question as { id: string }).id;
    expect(seen).toEqual([`open ${firstId}`, `end ${firstId}`, `open ${secondId}`]);
  }, 30_000);
});

/**
 * SQLite's temporary storage is memory (db.ts): the live writes never go through a temporary
 * file. Moving a session's answer log into `answers` inside the live writes' transaction is one
 * statement over many rows, and such a statement keeps a journal of the pages it changes so that
 * it can be undone alone; past 64 KiB SQLite moved that journal to a file in /var/tmp, written a
 * page at a time on the event loop (about 38 writes for a settle of ten answers,
 * docs/PERFORMANCE.md "Session 52"), and a full /var/tmp would have failed the game's commits.
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/databases.js';
import { openStore, type Store } from './store.js';

/** Descriptors of this process open on files already deleted: how SQLite's temporary files look. */
function openDeletedFiles(): string[] {
  const links: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target.endsWith('(deleted)')) links.push(target);
    } catch {
      // Closed meanwhile (the directory listing's own descriptor among them).
    }
  }
  return links;
}

describe('SQLite’s temporary storage', () => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore({ dataDir: database.dataDir });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it("settles many sessions' answer logs in one transaction without a temporary file", async () => {
    const now = new Date().toISOString();
    const questionId = randomUUID();
    await store.db
      .insertInto('questions')
      .values({ id: questionId, text: 'Which?', choices: '["A","B","C","D"]', correct_index: 0, points: 10, time_limit_seconds: 20, categories: '[]', created_at: now })
      .execute();
    // Ten games of 200 phones, each with an asking's answers in the log, as the shared
    // transaction of an evening's quiet steps settles them.
    const sessionIds: string[] = [];
    for (let g = 0; g < 10; g++) {
      const sessionId = randomUUID();
      sessionIds.push(sessionId);
      await store.db
        .insertInto('sessions')
        .values({ id: sessionId, title: `Screen ${g}`, status: 'live', created_at: now, auto_rotate: 0, media_items_per_transition: 1, current_question_index: 0, theme: '{}' })
        .execute();
      const players = Array.from({ length: 200 }, (_, i) => ({ id: randomUUID(), name: `P${i}`, email: `p${g}-${i}@example.com`, email_key: `p${g}-${i}@example.com`, created_at: now, session_id: sessionId }));
      await store.db.insertInto('players').values(players).execute();
      const answers = players.map((p, i) => ({
        sessionId, playerId: p.id, questionId, asking: 1, selectedIndex: i % 4, isCorrect: i % 4 === 0, pointsEarned: i % 4 === 0 ? 7 : 0, elapsedMs: 1_000 + i, answeredAt: now,
      }));
      await store.scores.transaction((trx) => store.scores.logAnswers(trx, answers));
    }

    const before = openDeletedFiles();
    const during = new Set<string>();
    await store.scores.transaction(async (trx) => {
      for (const sessionId of sessionIds) {
        await store.scores.settleAnswers(trx, sessionId);
        // A statement's journal file lives until its transaction ends: look while it runs.
        for (const link of openDeletedFiles()) during.add(link);
      }
    });
    expect([...during].filter((link) => !before.includes(link))).toEqual([]);
    // Moved all the same.
    for (const sessionId of sessionIds) expect((await store.scores.answersForAsking(sessionId, 1)).length).toBe(200);
  });
});

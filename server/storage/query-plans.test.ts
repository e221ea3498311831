/**
 * Issue 26: a round of one session reads only that session's rows, whatever else is live on the
 * instance. The statements a round runs (the answers of an asking, the scores) are planned on an
 * index led by the session, never as a scan of the table, on both databases; SQLite's answer log is
 * settled by the rowids of the session's rows (scores.ts), each found by its key. (On PostgreSQL sequential scans are switched off for the EXPLAIN: with the
 * tiny tables of a test the planner would rightly prefer them, and what is checked here is that an
 * index path by session exists at all.)
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../testing/databases.js';
import type { Database } from './schema.js';
import { CLEAR_LOGGED_SQL, SETTLE_LOGGED_SQL } from './scores.js';
import { openStore, type Store } from './store.js';

/** The per-round statements, with $1 the session (and $2 the asking where there is one). */
const ROUND_STATEMENTS: Record<string, string> = {
  'resume: the answers of an asking': 'select * from answers where session_id = $1 and asking = $2',
  'the session’s scores': 'select * from scores where session_id = $1 order by points_total desc',
  // Not a round's, but without a rank index (migration 015) it must still read one session's scores only.
  'a page of the results’ leaderboard': `select * from scores where session_id = $1 and (points_total < 300 or (points_total = 300 and reached_at > 'x'))
    order by points_total desc, reached_at, player_id limit 1000`,
  // Nor a round's: a player's delete finds their answers through the session (migration 016).
  'a deleted player’s answers': 'delete from answers where session_id = $1 and player_id = $2',
};

/** SQLite numbers parameters ?1, ?2; PostgreSQL $1, $2. Values are inlined: EXPLAIN plans them the same. */
const bind = (statement: string) => statement.replace('$1', `'some-session'`).replace('$2', `'3'`);

async function planOf(db: Kysely<Database>, dialect: string, statement: string): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(bind(statement))}`.execute(db);
    return rows.map((r) => r.detail);
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(bind(statement))}`.execute(trx);
    return rows.map((r) => r['QUERY PLAN']);
  });
}

describe.each(DIALECTS)('a round’s statements on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it.each(Object.entries(ROUND_STATEMENTS))('%s: found by the session’s index, no table scan', async (_what, statement) => {
    const plan = await planOf(store.db, dialect, statement);
    const text = plan.join('\n');
    if (dialect === 'sqlite') {
      // "SCAN answer_log" reads every session's rows; "SEARCH ... USING INDEX" reads one session's.
      expect(text).not.toMatch(/\bSCAN (answer_log|answers|scores)\b(?! USING)/);
      expect(text).toMatch(/SEARCH (answer_log|answers|scores) USING (COVERING )?INDEX/);
    } else {
      expect(text).not.toMatch(/Seq Scan on (answer_log|answers|scores)/);
      expect(text).toMatch(/Index (Only )?Scan using \w+ on (answer_log|answers|scores)|Bitmap Index Scan on \w+/);
    }
  });

});

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

/*
 * SQLite's temporary storage is memory (db.ts): settling the logs of many games inside the live
 * writes' shared transaction journals the pages each statement changes, so that it can be undone
 * alone; past 64 KiB SQLite moved that journal to a file in /var/tmp, written a page at a time on
 * the event loop (about 38 writes for a settle of ten answers, docs/PERFORMANCE.md "Session 52"),
 * and a full /var/tmp failed the game's commits.
 */
describe('SQLite’s answer log', () => {
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

  it.each([
    ['moved into answers', SETTLE_LOGGED_SQL],
    ['cleared', CLEAR_LOGGED_SQL],
  ])('is settled (%s) by the rowids of the session’s rows, no table scan', async (_what, statement) => {
    const bound = statement.replace('?', `'[1,2,3]'`).replace('?', `'some-session'`);
    const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(bound)}`.execute(store.db);
    const text = rows.map((r) => r.detail).join('\n');
    expect(text).toMatch(/SEARCH answer_log USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(text).not.toMatch(/\bSCAN answer_log\b/);
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

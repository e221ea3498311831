/**
 * Crash rounds for the resume roster (DESIGN §8, docs/REALTIME.md): the real server as a child
 * process, a full house of phones, a tenth of them joining the question once it is open
 * (latecomers get it in their first state), the server killed with SIGKILL at a moment picked by what storage shows
 * (read from the test process), started again at once on the same data, and the phones coming
 * back 0–3 s later. Each round plays its own session on the running server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SQLite } from '../storage/sqlite-driver.js';
import { createGame, type Game } from '../transport/ws/testing/setup.js';
import { TestApi } from './api.js';
import { adminToken, type ChildServer, freePort, startChildServer } from './child-server.js';
import type { TestDatabase } from './databases.js';
import { startTestServer } from './server.js';
import { StormPhone } from './storm-phone.js';

/** What storage holds for a session right now, as a restarted server would find it. */
export interface StoredState {
  phase: string | null;
  /** Players on the snapshot's roster, and those appended since (live_roster). */
  roster: number;
  joined: number;
  /** SQLite's answer log (not settled yet) and the settled answers of the session. */
  logged: number;
  settled: number;
}

/**
 * A moment to kill the server at, once every latecomer has been shown the question: a condition
 * on storage and on the phones (polled every few milliseconds), never a fixed sleep.
 */
export interface KillMoment {
  name: string;
  ready(stored: StoredState, phones: StormPhone[], questionId: string): boolean;
}

const confirmedCount = (phones: StormPhone[], questionId: string) => phones.filter((p) => p.confirmed.has(questionId)).length;

export const KILL_MOMENTS: Record<string, KillMoment> = {
  shown: { name: 'as soon as every latecomer has been shown the question', ready: () => true },
  rosterWritten: { name: 'after the roster refresh lists every phone', ready: (s, phones) => s.roster >= phones.length && s.joined === 0 },
  logged: { name: 'confirmed answers waiting in the answer log', ready: (s) => s.logged > 0 },
  settled: { name: 'after the answer log was settled mid-question', ready: (s) => s.settled > 0 && s.phase === 'question' },
};

/** Reads the session's resume state straight from the database files / schema. */
export async function readStored(database: TestDatabase, sessionId: string): Promise<StoredState> {
  const queries = {
    live: 'select live_state from sessions where id = $1',
    joined: 'select count(*) as n from live_roster where session_id = $1',
    logged: 'select count(*) as n from answer_log where session_id = $1',
    settled: 'select count(*) as n from answers where session_id = $1',
  };
  let rows: { live: string | null; joined: number; logged: number; settled: number };
  if (database.dialect === 'sqlite') {
    const db = new SQLite(path.join(database.dataDir, 'marquee.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const one = (sql: string) => db.prepare(sql.replace('$1', '?')).get(sessionId) as Record<string, unknown> | undefined;
      rows = {
        live: (one(queries.live)?.live_state as string | null) ?? null,
        joined: Number(one(queries.joined)?.n),
        logged: Number(one(queries.logged)?.n),
        settled: Number(one(queries.settled)?.n),
      };
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: database.databaseUrl, options: `-c search_path=${database.pgSchema}` });
    await client.connect();
    try {
      const one = async (sql: string) => (await client.query(sql, [sessionId])).rows[0] as Record<string, unknown> | undefined;
      rows = {
        live: ((await one(queries.live))?.live_state as string | null) ?? null,
        joined: Number((await one(queries.joined))?.n),
        logged: Number((await one(queries.logged))?.n),
        settled: Number((await one(queries.settled))?.n),
      };
    } finally {
      await client.end();
    }
  }
  const live = rows.live ? (JSON.parse(rows.live) as { phase: string; roster?: string[] }) : null;
  return { phase: live?.phase ?? null, roster: live?.roster?.length ?? 0, joined: rows.joined, logged: rows.logged, settled: rows.settled };
}

/** Phones in before the start answer within this window (the latecomers: `answerSpreadMs`). */
const EARLY_ANSWER_SPREAD_MS = 300;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

export interface RoundReport {
  moment: string;
  stored: StoredState;
  /** Phones that had not answered (no confirmation) when the server was killed. */
  unansweredAtKill: number;
  confirmedAtKill: number;
  /** Phones without their result once every phone had one or the wait ran out. */
  withoutResult: number;
  faults: string[];
}

export interface CrashRoundsOptions {
  database: TestDatabase;
  phones: number;
  moments: KillMoment[];
  /** Before the crash each latecomer answers at a random moment within this window of seeing the question. */
  answerSpreadMs: number;
}

/**
 * Plays one round per moment and returns what each round saw. The caller asserts (and drops the
 * database); the servers and phones are gone when this returns.
 */
export async function playCrashRounds(options: CrashRoundsOptions): Promise<RoundReport[]> {
  const { database, phones: phoneCount, moments } = options;
  const setup = await startTestServer({ database, realtime: { rehearsalPlayers: 0 } });
  const games: Game[] = [];
  try {
    const api = new TestApi(setup);
    await api.login();
    for (let r = 0; r < moments.length; r++) {
      // A 60 s question: no deadline is reached while the server restarts on a loaded machine.
      const game = await createGame(setup, api, { items: [{ question: { text: `Round ${r + 1}?`, correctIndex: 0, timeLimitSeconds: 60 } }, { slide: 'intro' }], players: phoneCount });
      // Auto-play off: after its reveal the game holds, so the question is never asked again in a round.
      const off = await api.request('PUT', `/api/admin/sessions/${game.sessionId}`, { autoRotate: false });
      if (off.status !== 200) throw new Error(`auto-play off failed: ${off.status}`);
      games.push(game);
    }
  } finally {
    await setup.close();
  }

  const logPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-crash-rounds-')), 'server.log');
  const port = await freePort();
  let server: ChildServer = await startChildServer(database, port, logPath);
  const reports: RoundReport[] = [];
  let phones: StormPhone[] = [];
  try {
    for (const [r, moment] of moments.entries()) {
      const game = games[r];
      const questionId = game.questions[0].id;
      let crashed = false;
      const token = await adminToken(server.baseUrl);
      // Most of the house is in before the start and answers at once; a tenth comes in (in one
      // burst, well within the roster refresh's second) while the question is open and takes its
      // time, so at the kill it is they who have not answered, on no roster written so far.
      const lateFrom = phoneCount - Math.round(phoneCount / 10);
      phones = game.players.map((p, i) => {
        const query = new URLSearchParams({ type: 'player', sessionId: game.sessionId, playerId: p.id, playerToken: p.playerToken });
        // Phone 0 holds back until the crash: the question cannot close before the kill.
        const spreadMs = i === 0 ? Infinity : i < lateFrom ? EARLY_ANSWER_SPREAD_MS : options.answerSpreadMs;
        return new StormPhone(i, () => `ws://127.0.0.1:${port}/ws?${query}`, () => (crashed ? Math.random() * 200 : Math.random() * spreadMs), i % 4);
      });
      const early = phones.slice(0, lateFrom);
      const late = phones.slice(lateFrom);
      for (const phone of early) phone.connect();
      await until('the early phones are connected', () => early.every((p) => p.connects > 0));
      const started = await fetch(`${server.baseUrl}/api/admin/sessions/${game.sessionId}/start`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      if (started.status !== 200) throw new Error(`start failed: ${started.status}`);
      await until('the early phones have answered', () => early.slice(1).every((p) => p.confirmed.has(questionId)));
      for (const phone of late) phone.connect();
      await until('every latecomer is shown the question', () => late.every((p) => p.shown.has(questionId)));
      let stored = await readStored(database, game.sessionId);
      await until(`the moment "${moment.name}"`, async () => moment.ready((stored = await readStored(database, game.sessionId)), phones, questionId), 20_000);
      await server.kill('SIGKILL');
      crashed = true;
      const confirmedAtKill = confirmedCount(phones, questionId);
      for (const phone of phones) phone.crashedDuring = questionId;
      server = await startChildServer(database, port, logPath);
      await until('every phone has its result', () => phones.every((p) => p.results.has(questionId) || p.faults.length > 0), 40_000).catch(() => undefined);
      reports.push({
        moment: moment.name,
        stored,
        unansweredAtKill: phoneCount - confirmedAtKill,
        confirmedAtKill,
        withoutResult: phones.filter((p) => !p.results.has(questionId)).length,
        faults: phones.flatMap((p) => p.faults),
      });
      for (const phone of phones) phone.stop();
      phones = [];
      // Over: the next restart resumes only the next round's game.
      await fetch(`${server.baseUrl}/api/admin/sessions/${game.sessionId}/stop`, { method: 'POST', headers: { authorization: `Bearer ${await adminToken(server.baseUrl)}` } });
    }
  } finally {
    for (const phone of phones) phone.stop();
    await server.kill('SIGKILL');
  }
  return reports;
}

/** What went wrong in the rounds, as text (a test expects none): faults, phones without a result, a kill after everyone answered. */
export function roundProblems(rounds: RoundReport[]): string[] {
  return rounds.flatMap((round) => [
    ...round.faults.slice(0, 5).map((fault) => `${round.moment}: ${fault}`),
    ...(round.withoutResult > 0 ? [`${round.moment}: ${round.withoutResult} phones without their result`] : []),
    ...(round.unansweredAtKill === 0 ? [`${round.moment}: every phone had answered before the kill (nothing tested)`] : []),
  ]);
}

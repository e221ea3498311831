/**
 * Longer than ~300 lines on purpose: five fault scenarios share one run and one table; each is a
 * few lines of set-up around the same measured question.
 *
 * Storage faults under a live question (`npm run bench -- outage [phones] [scenario…]`, DESIGN
 * §16): ~200 phones answer a 30 s question worth 1,000 points while the server's storage goes
 * away 3 s into it and comes back: PostgreSQL cut for 5 s and 40 s (a TCP proxy between Marquee
 * and PostgreSQL drops every connection and refuses new ones; the 40 s cut outlasts the
 * question's deadline), Redis cut the same way for 5 s and 20 s under three instances (phones
 * spread over them), and SQLite's disk full for 5 s (its data on a small tmpfs, filled by a file
 * and freed again). A tenth of the phones drop their socket 1 s into the cut and reconnect.
 *
 * Per scenario: confirmed answers lost, phones without a result, results wrong, server alive, the
 * countdown frozen (the longest gap between two ticks a phone got, beyond the 1 s cadence), the
 * worst points lost to late scoring (what the phone's send time earned minus what it got), the
 * time from storage back until the last held answer was confirmed, the reconnects during the cut,
 * and /readyz (polled every 100 ms) during and after. The server is Marquee as `npm start` runs it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pointsForCorrectAnswer } from '../server/game/engine/scoring.js';
import { CuttableProxy } from '../server/testing/cuttable-proxy.js';
import { mountSmallDisk } from '../server/testing/small-disk.js';
import { CORRECT_INDEX, registerPlayers, setUpGame } from './api.js';
import { BENCH_DATABASE_URL, startCluster } from './cluster-target.js';
import { openSocket, Screen } from './clients.js';
import { descriptorsFor } from './open-files.js';
import { OutagePhone } from './outage-phone.js';
import { sleep, until } from './wait.js';
import { ADMIN_PASSWORD, freePort, startTarget } from './targets.js';

export const OUTAGE_SCENARIOS = ['postgres-5', 'postgres-40', 'redis-5', 'redis-20', 'disk-5'] as const;
export type OutageScenario = (typeof OUTAGE_SCENARIOS)[number];

const TIME_LIMIT_MS = 30_000;
const POINTS = 1_000;
const CUT_AT_MS = 3_000;
const RESULTS_TIMEOUT_MS = 60_000;
const READYZ_POLL_MS = 100;

export interface OutageResult {
  scenario: OutageScenario;
  phones: number;
  outageMs: number;
  serverAlive: boolean;
  answeredDuringCut: number;
  /** Of those, confirmed before storage was back (SQLite writes into WAL space it already has until the WAL must grow). */
  confirmedDuringCut: number;
  confirmedLost: number;
  /** Phones that reconnected to resend a pick not confirmed within 1.5 s (as the web app does). */
  resent: number;
  phonesWithoutResult: number;
  resultsWrong: number;
  countdownFrozenS: number;
  /** Redis scenarios: phones on the instances other than the game's owner (they hear the owner only through Redis). */
  countdownFrozenOthersS?: number;
  /** The same gaps by the ticks' serverTime on the owner's phones: how long the room itself stalled. */
  roomClockStalledS: number;
  worstPointsLost: number;
  /** Storage back → the last answer held through the cut confirmed (NaN: none was held until then). */
  acceptedAgainMs: number;
  /** Phones dropped 1 s into the cut; `waiting`: those holding an answer not yet committed (they wait for it, by design). */
  reconnectsDuringCut: { dropped: number; waiting: number; backDuringCut: number; slowestBackMs: number; lastBackAfterRestoreMs: number };
  readyz: { during: string[]; unreadyAfterMs: number; readyAgainAfterMs: number; after: string };
}

interface Fault {
  env: Record<string, string>;
  dataDir?: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** The server(s) under test, and how their storage is cut. */
interface OutageTarget {
  baseUrl: string;
  /** Where phones connect (three instances for the Redis scenarios: spread over them). */
  socketUrls: string[];
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

async function singleServer(scenario: OutageScenario, fault: Fault, players: number, outDir: string): Promise<OutageTarget> {
  const reuse = fault.dataDir ? { port: await freePort(), dataDir: fault.dataDir } : undefined;
  const logDir = path.join(outDir, 'logs');
  const server = await startTarget('marquee', { logDir, label: `outage-${scenario}`, openFiles: descriptorsFor(players + 4), env: fault.env, reuse }).catch(async (err) => {
    await fault.close();
    throw err;
  });
  return {
    baseUrl: server.baseUrl,
    socketUrls: [server.baseUrl],
    cut: () => fault.cut(),
    restore: () => fault.restore(),
    close: async () => {
      await server.stop();
      await fault.close();
    },
  };
}

/** Three instances (bench/cluster-target.ts) reaching their Redis through a cuttable proxy. */
async function redisCluster(scenario: OutageScenario, players: number, outDir: string): Promise<OutageTarget> {
  let proxy: CuttableProxy | undefined;
  const cluster = await startCluster({ logDir: path.join(outDir, 'logs'), label: `outage-${scenario}`, openFiles: descriptorsFor(players + 4) }, async (url) => {
    proxy = await CuttableProxy.start(url);
    return proxy.url(url);
  });
  return {
    baseUrl: cluster.baseUrl,
    socketUrls: cluster.socketUrls,
    cut: () => proxy!.cut(),
    restore: () => proxy!.restore(),
    close: async () => {
      await proxy?.restore();
      await cluster.stop();
      await proxy?.close();
    },
  };
}

async function postgresFault(): Promise<Fault> {
  const schema = `bench_outage_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const proxy = await CuttableProxy.start(BENCH_DATABASE_URL);
  return {
    env: { DATABASE_URL: proxy.url(BENCH_DATABASE_URL), DATABASE_SCHEMA: schema },
    cut: () => proxy.cut(),
    restore: () => proxy.restore(),
    close: async () => {
      await proxy.close();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}

/** SQLite's data on a 64 MB tmpfs (mounting needs root). */
function diskFault(): Fault {
  const disk = mountSmallDisk(fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-bench-disk-')), 64);
  return {
    env: {},
    dataDir: disk.dir,
    cut: async () => disk.fill(),
    restore: async () => disk.free(),
    close: async () => {
      disk.unmount();
      fs.rmSync(disk.dir, { recursive: true, force: true });
    },
  };
}

export async function runOutage(scenario: OutageScenario, players: number, outDir: string, log: (line: string) => void): Promise<OutageResult> {
  const outageMs = Number(scenario.split('-')[1]) * 1000;
  const server = scenario.startsWith('redis')
    ? await redisCluster(scenario, players, outDir)
    : await singleServer(scenario, scenario.startsWith('postgres') ? await postgresFault() : diskFault(), players, outDir);
  const phones: OutagePhone[] = [];
  const readyz: { atMs: number; state: string }[] = [];
  let polling = true;
  try {
    const game = await setUpGame(server.baseUrl, ADMIN_PASSWORD, 1, 1, 1, { timeLimitSeconds: TIME_LIMIT_MS / 1000, points: POINTS });
    const [sessionId] = game.sessionIds;
    const registered = await registerPlayers(server.baseUrl, game.sessionIds, players, 16, randomBytes(4).toString('hex'));
    const wsBase = server.baseUrl.replace(/^http/, 'ws');
    const wsBases = server.socketUrls.map((url) => url.replace(/^http/, 'ws'));
    const admin = new Screen();
    admin.ws = await openSocket(`${wsBase}/ws?${new URLSearchParams({ sessionId, type: 'admin', token: game.adminToken })}`, admin.onFrame);
    admin.ws.on('error', () => undefined);
    admin.send({ type: 'admin_pause' });
    // Answers spread from 1 s into the question until a few seconds after the cut (or near the deadline).
    const lastAnswerMs = Math.min(CUT_AT_MS + outageMs + 4_000, TIME_LIMIT_MS - 2_000);
    for (const [i, player] of registered.entries()) {
      const query = new URLSearchParams({ sessionId, type: 'player', playerId: player.id, playerToken: player.playerToken });
      phones.push(new OutagePhone(`${wsBases[i % wsBases.length]}/ws?${query}`, i % 4, 1_000 + Math.random() * (lastAnswerMs - 1_000), TIME_LIMIT_MS));
    }
    for (const phone of phones) phone.connect();
    await sleep(2_000);
    void (async () => {
      while (polling) {
        const res = await fetch(`${server.baseUrl}/readyz`).catch(() => null);
        const body = res ? ((await res.json().catch(() => ({}))) as { checks?: Record<string, string> }) : null;
        const failing = Object.entries(body?.checks ?? {}).filter(([, value]) => value !== 'ok' && value !== 'off');
        readyz.push({ atMs: Date.now(), state: res ? `${res.status}${failing.map(([name, value]) => ` ${name}: ${value}`).join(',')}` : 'no answer' });
        await sleep(READYZ_POLL_MS);
      }
    })();

    admin.send({ type: 'admin_next_question' });
    if (!(await until(() => phones.every((p) => p.questionId !== null), 15_000))) throw new Error('the question did not reach every phone');
    const startedAt = phones[0].startedAtMs;
    const ownerUrl = server.socketUrls.length > 1 ? await ownerOf(server.socketUrls) : undefined;
    const ownPhones = new Set(phones.filter((_, i) => ownerUrl === undefined || server.socketUrls[i % server.socketUrls.length] === ownerUrl));
    await sleep(Math.max(0, startedAt + CUT_AT_MS - Date.now()));
    await server.cut();
    const cutAt = Date.now();
    log(`  ${scenario}: storage cut ${((cutAt - startedAt) / 1000).toFixed(1)} s into the question`);
    await sleep(1_000);
    const dropped = phones.filter((_, i) => i % 10 === 9);
    const waiting = dropped.filter((p) => p.answered && p.confirmed === null).length;
    for (const phone of dropped) phone.drop();
    await sleep(Math.max(0, cutAt + outageMs - Date.now()));
    await server.restore();
    const restoredAt = Date.now();
    log(`  ${scenario}: storage back after ${((restoredAt - cutAt) / 1000).toFixed(1)} s`);
    await until(() => phones.every((p) => !p.answered || p.result !== null), RESULTS_TIMEOUT_MS + Math.max(0, startedAt + TIME_LIMIT_MS - Date.now()));
    await sleep(1_000); // /readyz after
    polling = false;
    const serverAlive = (await fetch(`${server.baseUrl}/healthz`).catch(() => null))?.ok === true;
    return summarize(scenario, { phones, ownPhones, dropped, waiting, readyz, cutAt, restoredAt, outageMs, serverAlive });
  } finally {
    polling = false;
    for (const phone of phones) phone.stop();
    await server.close();
  }
}

/** The instance running the game: its /metrics counts the live session (marquee_live_sessions). */
async function ownerOf(urls: string[]): Promise<string | undefined> {
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`)).text();
    if (/^marquee_live_sessions [1-9]/m.test(text)) return url;
  }
  return undefined;
}

/** The longest wait between two ticks (or from the start to the first), beyond the 1 s cadence; by the ticks' serverTime with `atServer`. */
function longestTickGapMs(phones: OutagePhone[], atServer = false): number {
  let frozenMs = 0;
  for (const p of phones) {
    const times = atServer ? p.tickServerTimesMs : [p.startedAtMs, ...p.tickTimesMs];
    for (let i = 1; i < times.length; i++) frozenMs = Math.max(frozenMs, times[i] - times[i - 1] - 1_000);
  }
  return frozenMs;
}

interface Run {
  phones: OutagePhone[];
  /** Phones on the instance running the game (all of them with one server). */
  ownPhones: Set<OutagePhone>;
  dropped: OutagePhone[];
  waiting: number;
  readyz: { atMs: number; state: string }[];
  cutAt: number;
  restoredAt: number;
  outageMs: number;
  serverAlive: boolean;
}

function summarize(scenario: OutageScenario, run: Run): OutageResult {
  const { phones, dropped, readyz, cutAt, restoredAt } = run;
  const confirmedLost = phones.filter(
    (p) => p.lostConfirmed || (p.confirmed !== null && (p.result === null || p.result.isCorrect !== (p.confirmed === CORRECT_INDEX))),
  ).length;
  // Of phones that kept their socket (neither dropped nor reconnecting to resend): on the owner's instance, and (Redis scenarios) on the others.
  const kept = phones.filter((p) => !dropped.includes(p) && p.resends === 0);
  const frozenMs = longestTickGapMs(kept.filter((p) => run.ownPhones.has(p)));
  const others = kept.filter((p) => !run.ownPhones.has(p));
  let worstPointsLost = 0;
  for (const p of phones) {
    if (!p.result?.isCorrect || !p.answered) continue;
    const earnedAtSend = pointsForCorrectAnswer(POINTS, TIME_LIMIT_MS / 1000, p.sentAtMs - p.startedAtMs);
    worstPointsLost = Math.max(worstPointsLost, earnedAtSend - p.result.pointsEarned);
  }
  const held = phones.filter((p) => p.answered && p.sentAtMs >= cutAt && p.sentAtMs < restoredAt);
  const heldConfirmedAt = held.map((p) => p.confirmedAtMs).filter((t) => t >= restoredAt);
  const during = readyz.filter((r) => r.atMs >= cutAt && r.atMs < restoredAt);
  const firstUnready = during.find((r) => !r.state.startsWith('200'));
  const readyAgain = readyz.find((r) => r.atMs >= restoredAt && r.state.startsWith('200'));
  const back = dropped.filter((p) => p.backAtMs < restoredAt);
  return {
    scenario,
    phones: phones.length,
    outageMs: run.outageMs,
    serverAlive: run.serverAlive,
    answeredDuringCut: held.length,
    confirmedDuringCut: held.filter((p) => p.confirmedAtMs < restoredAt).length,
    confirmedLost,
    resent: phones.filter((p) => p.resends > 0).length,
    phonesWithoutResult: phones.filter((p) => p.answered && p.result === null).length,
    resultsWrong: phones.filter((p) => p.result !== null && p.result.isCorrect !== (p.choice === CORRECT_INDEX)).length,
    countdownFrozenS: Math.round(frozenMs / 100) / 10,
    roomClockStalledS: Math.round(longestTickGapMs(kept.filter((p) => run.ownPhones.has(p)), true) / 100) / 10,
    countdownFrozenOthersS: others.length ? Math.round(longestTickGapMs(others) / 100) / 10 : undefined,
    worstPointsLost,
    acceptedAgainMs: heldConfirmedAt.length ? Math.max(...heldConfirmedAt) - restoredAt : Number.NaN,
    reconnectsDuringCut: {
      dropped: dropped.length,
      waiting: run.waiting,
      backDuringCut: back.length,
      slowestBackMs: back.length ? Math.max(...back.map((p) => p.backAtMs - p.droppedAtMs)) : Number.NaN,
      lastBackAfterRestoreMs: dropped.length > back.length ? Math.max(...dropped.filter((p) => !back.includes(p)).map((p) => p.backAtMs - restoredAt)) : Number.NaN,
    },
    readyz: {
      during: [...new Set(during.map((r) => r.state))],
      unreadyAfterMs: firstUnready ? firstUnready.atMs - cutAt : Number.NaN,
      readyAgainAfterMs: readyAgain ? readyAgain.atMs - restoredAt : Number.NaN,
      after: readyz.at(-1)?.state ?? 'none',
    },
  };
}

export function formatOutage(results: OutageResult[]): string {
  const s = (ms: number) => (Number.isNaN(ms) ? '–' : `${(ms / 1000).toFixed(2)} s`);
  const rows: [string, (r: OutageResult) => string][] = [
    ['phones / answered during the cut (of which confirmed before storage was back)', (r) => `${r.phones} / ${r.answeredDuringCut} (${r.confirmedDuringCut})`],
    ['server alive', (r) => (r.serverAlive ? 'yes' : 'NO')],
    ['confirmed answers lost', (r) => String(r.confirmedLost)],
    ['phones that reconnected to resend a pick unconfirmed after 1.5 s', (r) => String(r.resent)],
    ['phones without a result', (r) => String(r.phonesWithoutResult)],
    ['results wrong', (r) => String(r.resultsWrong)],
    [
      "countdown frozen (beyond the 1 s tick): the owner's phones (the other instances' phones)",
      (r) => `${r.countdownFrozenS.toFixed(1)} s${r.countdownFrozenOthersS === undefined ? '' : ` (${r.countdownFrozenOthersS.toFixed(1)} s)`}`,
    ],
    ["of which the room itself (gaps between the ticks' serverTime)", (r) => `${r.roomClockStalledS.toFixed(1)} s`],
    ['worst points lost to late scoring (of 1,000)', (r) => String(r.worstPointsLost)],
    ['storage back → last held answer accepted', (r) => s(r.acceptedAgainMs)],
    [
      'reconnects during the cut: back / dropped (of which waiting for their commit), slowest',
      (r) => `${r.reconnectsDuringCut.backDuringCut} / ${r.reconnectsDuringCut.dropped} (${r.reconnectsDuringCut.waiting}), ${s(r.reconnectsDuringCut.slowestBackMs)}`,
    ],
    ['the others: storage back → last one back', (r) => s(r.reconnectsDuringCut.lastBackAfterRestoreMs)],
    ['/readyz during the cut', (r) => r.readyz.during.join('; ')],
    ['/readyz: cut → 503; back → 200', (r) => `${s(r.readyz.unreadyAfterMs)}; ${s(r.readyz.readyAgainAfterMs)}`],
    ['/readyz after', (r) => r.readyz.after],
  ];
  return [
    `| figure | ${results.map((r) => r.scenario).join(' | ')} |`,
    `|---|${results.map(() => '--:').join('|')}|`,
    ...rows.map(([name, cell]) => `| ${name} | ${results.map(cell).join(' | ')} |`),
  ].join('\n');
}

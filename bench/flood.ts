/**
 * The bot flood (`npm run bench -- flood [honest]`, DESIGN §15): one address fires 5,000
 * registration attempts and 5,000 socket opens at one live session while honest phones play it.
 * Reported: how many registrations got through (the per-address limit at its default, 100 then
 * 2/s) and how many sockets were accepted, the server's memory, and the honest phones' fan-out
 * p99 (admin's Next → each phone's question) during the flood beside the same game without it.
 *
 * Every client runs on 127.0.0.1 (the machine's own loopback), so the honest phones register
 * from 127.0.0.2: another address as far as the server can tell, as the venue's Wi-Fi is.
 */
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { setUpGame, type Registered } from './api.js';
import { Phone, Screen, openSocket } from './clients.js';
import { readRssKb } from './proc-stats.js';
import { distribution, round, type Distribution } from './stats.js';
import { ADMIN_PASSWORD, startTarget } from './targets.js';
import { sleep, until } from './wait.js';

const ATTEMPTS = 5_000;
const SOCKET_OPENS = 5_000;
const FLOOD_CONCURRENCY = 50;
const ROUNDS = 3;
const HONEST_ADDRESS = '127.0.0.2';

export interface FloodResult {
  honestPhones: number;
  registrations: Record<string, number>;
  sockets: { accepted: number; refused: Record<string, number> };
  rssMb: { before: number; peak: number; after: number };
  fanOutP99Ms: { quiet: number[]; flood: number[] };
  fanOut: { quiet: Distribution; flood: Distribution };
  floodMs: number;
  /** Honest phones without the round's question within 60 s, summed over the rounds. */
  missed: { quiet: number; flood: number };
}

function post(baseUrl: string, pathName: string, body: unknown, localAddress?: string): Promise<{ status: number; body: any }> {
  const url = new URL(pathName, baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const wsUrl = (baseUrl: string, query: Record<string, string>) => `${baseUrl.replace(/^http/, 'ws')}/ws?${new URLSearchParams(query)}`;

/** The bots: registrations, then socket opens with whatever they got (valid tokens and made-up ones). */
async function flood(baseUrl: string, sessionId: string, result: Pick<FloodResult, 'registrations' | 'sockets'>, bots: WebSocket[]): Promise<void> {
  const admitted: Registered[] = [];
  let next = 0;
  const register = async () => {
    while (next < ATTEMPTS) {
      const i = next++;
      const res = await post(baseUrl, '/api/player/register', { name: `Bot ${i}`, email: `bot-${i}@flood.example`, sessionId }).catch(() => ({ status: 0, body: {} }));
      result.registrations[res.status] = (result.registrations[res.status] ?? 0) + 1;
      if (res.status === 201) admitted.push({ id: res.body.id, playerToken: res.body.playerToken, sessionId });
    }
  };
  await Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, register));
  let opened = 0;
  const open = async () => {
    while (opened < SOCKET_OPENS) {
      const i = opened++;
      const bot = admitted.length > 0 && i % 2 === 0 ? admitted[i % admitted.length] : { id: `made-up-${i}`, playerToken: `made-up-${i}` };
      try {
        bots.push(await openSocket(wsUrl(baseUrl, { sessionId, type: 'player', playerId: bot.id, playerToken: bot.playerToken }), () => undefined));
        result.sockets.accepted++;
      } catch (err) {
        const reason = String((err as Error).message).split(' ').slice(0, 2).join(' ');
        result.sockets.refused[reason] = (result.sockets.refused[reason] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, open));
}

export async function runFlood(honest: number, outDir: string, log: (line: string) => void): Promise<FloodResult> {
  const target = await startTarget('marquee', { logDir: outDir, label: 'flood', openFiles: honest + SOCKET_OPENS + 1_000, env: { REGISTRATION_LIMIT: '100,2' } });
  try {
    // One question more than the rounds: the first Next (past the intro slide) opens one.
    const game = await setUpGame(target.baseUrl, ADMIN_PASSWORD, 1, ROUNDS * 2 + 1);
    const sessionId = game.sessionIds[0];
    const phones: Phone[] = [];
    for (let i = 0; i < honest; i++) {
      const res = await post(target.baseUrl, '/api/player/register', { name: `Guest ${i + 1}`, email: `guest-${i + 1}@cinema.example`, sessionId }, HONEST_ADDRESS);
      if (res.status !== 201) throw new Error(`an honest phone could not register: ${res.status} ${JSON.stringify(res.body)}`);
      const phone = new Phone(res.body.id, 0, { question: (p) => p.answer(0), result: () => undefined });
      phone.ws = await openSocket(wsUrl(target.baseUrl, { sessionId, type: 'player', playerId: res.body.id, playerToken: res.body.playerToken }), phone.onFrame);
      phones.push(phone);
    }
    const admin = new Screen();
    admin.ws = await openSocket(wsUrl(target.baseUrl, { sessionId, type: 'admin', token: game.adminToken }), admin.onFrame);
    const rss = () => round(readRssKb(target.pid) / 1024);
    const result: FloodResult = {
      honestPhones: honest,
      registrations: {},
      sockets: { accepted: 0, refused: {} },
      rssMb: { before: rss(), peak: 0, after: 0 },
      fanOutP99Ms: { quiet: [], flood: [] },
      fanOut: { quiet: distribution([]), flood: distribution([]) },
      floodMs: 0,
      missed: { quiet: 0, flood: 0 },
    };
    const samples = { quiet: [] as number[], flood: [] as number[] };
    const playRound = async (kind: 'quiet' | 'flood') => {
      const asked = new Set(phones.map((p) => p.questionId));
      const sentAt = admin.send({ type: 'admin_next_question' });
      await until(() => phones.every((p) => !asked.has(p.questionId) && p.questionAtMs >= sentAt), 60_000);
      // A phone that missed the round's question (dropped, or still on an older one) is counted, not timed.
      const lags = phones.map((p) => p.questionAtMs - sentAt).filter((lag) => Number.isFinite(lag) && lag >= 0);
      result.missed[kind] += phones.length - lags.length;
      samples[kind].push(...lags);
      result.fanOutP99Ms[kind].push(round(distribution(lags).p99));
      await sleep(1_500);
    };
    // Past the intro slide, then the quiet rounds.
    admin.send({ type: 'admin_next_question' });
    await sleep(1_000);
    for (let r = 0; r < ROUNDS; r++) await playRound('quiet');
    log(`quiet rounds: fan-out p99 ${result.fanOutP99Ms.quiet.join(', ')} ms`);

    const bots: WebSocket[] = [];
    const startedAt = performance.now();
    let peak = result.rssMb.before;
    const watch = setInterval(() => (peak = Math.max(peak, rss())), 200);
    const flooding = flood(target.baseUrl, sessionId, result, bots).then(() => (result.floodMs = round(performance.now() - startedAt)));
    for (let r = 0; r < ROUNDS; r++) await playRound('flood');
    await flooding;
    clearInterval(watch);
    result.rssMb.peak = Math.max(peak, rss());
    for (const bot of bots) bot.terminate();
    await sleep(1_000);
    result.rssMb.after = rss();
    result.fanOut = { quiet: distribution(samples.quiet), flood: distribution(samples.flood) };
    log(`flood rounds: fan-out p99 ${result.fanOutP99Ms.flood.join(', ')} ms`);
    for (const phone of phones) phone.ws?.terminate();
    admin.ws.terminate();
    return result;
  } finally {
    await target.stop();
  }
}

export function formatFlood(r: FloodResult): string {
  const codes = Object.entries(r.registrations).map(([status, n]) => `${status}: ${n}`).join(', ');
  const refused = Object.entries(r.sockets.refused).map(([why, n]) => `${why}: ${n}`).join(', ') || 'none';
  return [
    `honest phones: ${r.honestPhones} (registered from ${HONEST_ADDRESS})`,
    `registration attempts from one address: ${ATTEMPTS} → ${codes}`,
    `socket opens from one address: ${SOCKET_OPENS} → accepted ${r.sockets.accepted}, refused ${refused}`,
    `flood took ${r.floodMs} ms; server RSS ${r.rssMb.before} MB before, ${r.rssMb.peak} MB peak, ${r.rssMb.after} MB after`,
    `honest fan-out p99 per round (Next → question on the phone): quiet ${r.fanOutP99Ms.quiet.join(' / ')} ms; during the flood ${r.fanOutP99Ms.flood.join(' / ')} ms`,
    `all rounds: quiet p50 ${r.fanOut.quiet.p50} p99 ${r.fanOut.quiet.p99} ms; flood p50 ${r.fanOut.flood.p50} p99 ${r.fanOut.flood.p99} ms`,
    `honest phones that missed a round's question: quiet ${r.missed.quiet}, during the flood ${r.missed.flood}`,
  ].join('\n');
}

export const FLOOD_OUTPUT = (outDir: string) => path.join(outDir, 'flood.json');

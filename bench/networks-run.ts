/**
 * Runs the networks scenario (networks.ts) once per phone client: a fresh server, an auditorium
 * of phones split evenly over the four profiles, `questions` 10 s questions played by auto-play,
 * a display on a perfect link timing the reveals. Basement phones lose their signal for 4 s once
 * per question, at a random moment of it.
 *
 * The server offers slow phones the datagram path (docs/REALTIME.md), gathered on 127.0.0.1 inside
 * the namespace so the phones' UDP goes through the shaper as their TCP does. `--no-datagram`
 * turns it off (RTC_UDP_PORT=off), to measure without it. The proxy shaper always runs without it:
 * it carries TCP only, and the phones' UDP would reach the server unshaped.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import WebSocket from 'ws';
import { parse } from 'csv-parse/sync';
import { registerPlayers } from './api.js';
import { descriptorsFor } from './open-files.js';
import {
  BenchPhone,
  PROFILES,
  type PhoneLink,
  QUESTION_SECONDS,
  type ClientKind,
  type ProfileFigures,
  profileFigures,
  releaseDatagramLibrary,
  sleep,
  standingAtClose,
} from './networks.js';
import { ShapedLink } from './shaper.js';
import { PacketShaper } from './netns.js';
import { distribution, type Distribution } from './stats.js';
import { ADMIN_PASSWORD, startTarget } from './targets.js';
import { until } from './wait.js';

/** `netns`: the namespace's packet shaper (netns.ts, the default); `proxy`: the userspace TCP proxy fallback. */
export type ShaperKind = 'netns' | 'proxy';

export interface NetworksResult {
  client: ClientKind;
  shaper: ShaperKind;
  phones: number;
  questions: number;
  /** The server offered the datagram path (off with --no-datagram, and always with the proxy shaper). */
  datagram: boolean;
  profiles: ProfileFigures[];
  /** question_end at a perfectly connected display, past the question's deadline. */
  revealPastDeadlineMs: Distribution;
}

async function post<T>(baseUrl: string, route: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(baseUrl + route, {
    method: 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${route} → ${response.status}: ${text.slice(0, 200)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** The lobby lasts at least this long, and at most this long while phones are still joining. */
const LOBBY_MIN_MS = 10_000;
const LOBBY_MAX_MS = 60_000;

export async function runNetworks(
  client: ClientKind,
  shaper: ShaperKind,
  phones: number,
  questions: number,
  wantDatagram: boolean,
  outDir: string,
  log: (line: string) => void,
): Promise<NetworksResult> {
  const datagram = wantDatagram && shaper === 'netns';
  // First the namespace's shaper: it brings `lo` up.
  const packets = shaper === 'netns' ? await PacketShaper.start(PROFILES, { stderr: (text) => process.stderr.write(text) }) : null;
  const server = await startTarget('marquee', {
    logDir: outDir,
    label: `networks-${client}`,
    openFiles: descriptorsFor(phones * 2 + 8),
    env: { REGISTRATION_LIMIT: 'off', RTC_ADDRESS: '127.0.0.1', ...(datagram ? {} : { RTC_UDP_PORT: 'off' }) },
  });
  const links: PhoneLink[] = [];
  const crowd: BenchPhone[] = [];
  let display: WebSocket | null = null;
  try {
    const { baseUrl } = server;
    const { token } = await post<{ token: string }>(baseUrl, '/api/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
    const session = await post<{ id: string }>(baseUrl, '/api/admin/sessions', { title: 'Networks bench', autoRotate: true }, token);
    const questionIds: string[] = [];
    for (let q = 0; q < questions; q++) {
      const question = await post<{ id: string }>(
        baseUrl,
        '/api/admin/questions',
        { text: `Networks question ${q + 1}?`, choices: ['A', 'B', 'C', 'D'], correctIndex: 0, points: 100, timeLimitSeconds: QUESTION_SECONDS, categories: ['bench'] },
        token,
      );
      await post(baseUrl, `/api/admin/sessions/${session.id}/questions`, { questionId: question.id }, token);
      questionIds.push(question.id);
    }
    const runTag = randomBytes(4).toString('hex');
    const registered = await registerPlayers(baseUrl, [session.id], phones, 16, runTag);
    const port = server.port;
    for (const [i, player] of registered.entries()) {
      const profile = PROFILES[i % PROFILES.length];
      const query = new URLSearchParams({ type: 'player', sessionId: session.id, playerId: player.id, playerToken: player.playerToken });
      if (packets) {
        const link = packets.link(profile);
        if (process.env.NETWORKS_TRACE === 'packets' && profile.signalLossMs > 0) link.trace();
        links.push(link);
        crowd.push(new BenchPhone(`ws://127.0.0.1:${port}/ws?${query}`, link, client));
      } else {
        const link = new ShapedLink(port, profile);
        const linkPort = await link.listen();
        links.push(link);
        crowd.push(new BenchPhone(`ws://127.0.0.1:${linkPort}/ws?${query}`, link, client));
      }
    }
    for (const phone of crowd) phone.connect();
    // The lobby: an audience joins while the ads run, minutes before the first question, so the
    // show starts once every phone has joined: its socket open and, if offered one, its datagram
    // path (on basement ~10 s after the first dial at the median and up to ~30 s: a dozen round
    // trips of 0.8 s and the resends of lost handshake packets, docs/PERFORMANCE.md). A fixed 10 s
    // left about one basement phone in two to its first question without a path.
    const lobbyStartMs = Date.now();
    await sleep(LOBBY_MIN_MS);
    await until(() => crowd.every((phone) => phone.joined), LOBBY_MAX_MS - LOBBY_MIN_MS);
    const notJoined = crowd.filter((phone) => !phone.joined).length;
    log(`  lobby: ${((Date.now() - lobbyStartMs) / 1000).toFixed(1)} s${notJoined > 0 ? `, ${notJoined} phones not joined` : ', every phone joined'}`);

    // The display: deadlines, reveal times, and the basement's signal losses scheduled per question.
    const questionEnds = new Map<string, number>();
    const revealPast: number[] = [];
    const standings = new Map<string, ReturnType<typeof standingAtClose>>(); // `${phone index}#${questionId}`
    const deadlines = new Map<string, number>();
    display = new WebSocket(`ws://127.0.0.1:${port}/ws?${new URLSearchParams({ type: 'display', sessionId: session.id })}`);
    display.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'session_state' && message.phase === 'question' && message.question && !deadlines.has(message.question.id)) {
        deadlines.set(message.question.id, message.endsAt);
        for (const phone of crowd) {
          const lossMs = phone.profile.signalLossMs;
          if (lossMs > 0) {
            setTimeout(() => {
              phone.note(`cut ${lossMs}`);
              phone.link.cutOff(lossMs);
            }, Math.random() * QUESTION_SECONDS * 1000);
          }
        }
      }
      if (message.type === 'question_end' && !questionEnds.has(message.questionId)) {
        const now = Date.now();
        questionEnds.set(message.questionId, now);
        // An early end (everyone answered) counts as 0 past the deadline.
        revealPast.push(Math.max(0, now - (deadlines.get(message.questionId) ?? now)));
        for (const [i, phone] of crowd.entries()) standings.set(`${i}#${message.questionId}`, standingAtClose(phone.profile, phone.link, now));
      }
    });
    await new Promise((resolve) => display!.once('open', resolve));
    await post(baseUrl, `/api/admin/sessions/${session.id}/start`, undefined, token);
    log(`  ${client} client, ${shaper} shaper, datagram path ${datagram ? 'on' : 'off'}: ${phones} phones, ${questions} questions of ${QUESTION_SECONDS} s`);
    const deadline = Date.now() + questions * 25_000 + 30_000;
    while (questionEnds.size < questions && Date.now() < deadline) await sleep(250);
    await sleep(8_000); // results still on their way to the slow phones
    await post(baseUrl, `/api/admin/sessions/${session.id}/stop`, undefined, token);
    // What the server counted (its stored answers), not what each phone happened to hear.
    const csv = await (await fetch(`${baseUrl}/api/admin/sessions/${session.id}/answers.csv`, { headers: { authorization: `Bearer ${token}` } })).text();
    // The emails registerPlayers gives (api.ts).
    const phoneByEmail = new Map(crowd.map((phone, i) => [`phone-${runTag}-${i + 1}@bench.example`, phone]));
    for (const row of parse(csv, { from_line: 2 }) as string[][]) {
      const [, email, questionText, , , , points] = row;
      const questionId = questionIds[Number(/(\d+)/.exec(questionText)?.[1] ?? 0) - 1];
      const asking = phoneByEmail.get(email)?.askings.get(questionId);
      if (asking) asking.counted = { points: Number(points) };
    }
    const standing = (phone: BenchPhone, questionId: string) => standings.get(`${crowd.indexOf(phone)}#${questionId}`);
    const profiles = PROFILES.map((profile) => profileFigures(profile, crowd.filter((p) => p.profile === profile), questionEnds, standing));
    return { client, shaper, phones, questions, datagram, profiles, revealPastDeadlineMs: distribution(revealPast) };
  } finally {
    display?.terminate();
    for (const phone of crowd) phone.stop();
    // Every peer connection is closed: the library's threads may go (else the process may not exit).
    if (client === 'new') releaseDatagramLibrary();
    await Promise.all(links.map((link) => link.close()));
    await server.stop();
    if (packets) log(`  shaper: ${JSON.stringify(await packets.stop())} packets passed/dropped`);
  }
}

export function formatNetworks(results: NetworksResult[]): string {
  const lines = [
    'client  profile    seen p50/p99 ms   taps  lost (cut off/unreachable/no handshake)  deficit mean/max %  accepted after end  datagram paths (question/accepted first on it; ready p50/max s; askings before it)',
  ];
  for (const result of results) {
    for (const p of result.profiles) {
      const ready = p.pathReadySeconds.count > 0 ? `; ${p.pathReadySeconds.p50}/${p.pathReadySeconds.max}; ${p.askingsBeforePath}` : '';
      const paths = result.datagram ? `${p.datagramPaths}/${p.phones} (${p.questionsFirstOnPath}/${p.acceptedFirstOnPath}${ready})` : 'off';
      lines.push(
        `${result.client.padEnd(7)} ${p.profile.padEnd(10)} ${`${p.questionSeenMs.p50}/${p.questionSeenMs.p99}`.padEnd(17)} ${String(p.taps).padEnd(5)} ${`${p.tapsLost} (${p.tapsLostCutOff}/${p.tapsLostUnreachable}/${p.tapsLostNoHandshake})`.padEnd(40)} ${`${p.deficitMeanPct}/${p.deficitMaxPct}`.padEnd(19)} ${String(p.acceptedAfterEnd).padEnd(19)} ${paths}`,
      );
    }
    const r = result.revealPastDeadlineMs;
    lines.push(`${result.client.padEnd(7)} reveal past the deadline: p50 ${r.p50} ms, max ${r.max} ms`);
  }
  return lines.join('\n');
}

export const NETWORKS_OUT = (outDir: string) => path.join(outDir, 'networks.json');

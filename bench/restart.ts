/**
 * Longer than ~300 lines on purpose: one crash scenario (kill, restart, storm, checks), read top
 * to bottom.
 *
 * The reconnect storm (`npm run bench -- restart 2000`): N phones in a live question, the server
 * killed with SIGKILL 0.6 s into the question (phones answering), started again at once on the
 * same data and port, and every phone coming back with the web client's real backoff
 * (`reconnectDelayMs` of web/common/realtime/timings.ts, imported: the same schedule, the attempt
 * count reset on open, as useSessionSocket does).
 *
 * "The server answers again" is the moment its port accepts a TCP connection (polled every few
 * milliseconds, independent of how busy its event loop is): from then on a phone's attempt can
 * succeed. "Back" is a phone's first `session_state` after the restart, when it shows the current
 * asking: the open question, or its reveal when the question closed before the phone was back
 * (that is fair only for a phone that had answered; one that had not is counted as having missed
 * the question). Figures: the time from the server answering until 99 % and 100 % of phones are
 * back, split into waiting (the backoff) and connecting (attempt → first state); the server's
 * event-loop delay from that moment until the last phone is back; the kernel's accept-queue
 * overflows; confirmed answers lost (a phone that had `answer_accepted` and came back unlocked, or
 * with another choice). The phones run in this process; the server is Marquee as `npm start` runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { CONNECT_TIMEOUT_MS, PERMANENT_CLOSE_CODES, reconnectDelayMs } from '../web/common/realtime/timings.js';
import { registerPlayers, setUpGame } from './api.js';
import { openSocket, Screen } from './clients.js';
import { descriptorsFor } from './open-files.js';
import type { EventLoopDelay } from './probe.js';
import { readCpuSeconds, readListenOverflows } from './proc-stats.js';
import { sleep, until } from './wait.js';
import { distribution, round, type Distribution } from './stats.js';
import { ADMIN_PASSWORD, startTarget, type RunningTarget } from './targets.js';

/** The issue's targets (DESIGN §8 / issue 10). */
export const RESTART_TARGETS = { back99WithinMs: 6_000, eventLoopP99Ms: 50, confirmedLost: 0 };

const ANSWER_WINDOW_MS = 1_000;
const STORM_TIMEOUT_MS = 60_000;
const RESULTS_TIMEOUT_MS = 30_000;

/** How one crash is played (`npm run bench -- restart …`, bench/restart-runs.ts). */
export interface RestartOptions {
  /** SIGKILL this long after the question is sent: a random moment in [min, max] ms. */
  killAfterMs: [number, number];
  /** 0: phones reconnect with the web client's backoff; otherwise each attempt waits a random 0–N ms. */
  reconnectJitterMs: number;
  /** Share of the phones that join only once the question is open (latecomers: on no roster the question started with). */
  lateShare: number;
  /** The server's database: the bench's own SQLite, or a fresh PostgreSQL schema (DATABASE_URL, DATABASE_SCHEMA). */
  env?: Record<string, string>;
}

export const DEFAULT_RESTART_OPTIONS: RestartOptions = { killAfterMs: [500, 1_000], reconnectJitterMs: 0, lateShare: 0.1 };

export interface RestartResult {
  players: number;
  /** When the kill came, after the question was sent. */
  killAfterMs: number;
  /** Phones that joined once the question was open. */
  latecomers: number;
  /** Phones holding an `answer_accepted` when the server was killed. */
  confirmedBeforeKill: number;
  /** SIGKILL → the new process accepting connections on its port (its start-up, migrations included). */
  restartMs: number;
  /** Server answering again → each phone back (its first state of the current asking). */
  backMs: Distribution;
  back99Ms: number;
  back100Ms: number;
  /** Phones with no state of the current asking within the storm's timeout. */
  phonesNotBack: number;
  /** Back in the reveal: their question closed before they were back (they had answered before the crash). */
  backAfterCloseAnswered: number;
  /** Back after their question closed without their answer: they missed it (only fair past the resume's grace). */
  missedTheQuestion: number;
  /** Server answering again → each phone's socket open (the handshake done, before its state). */
  openMs: Distribution;
  /** Start of a phone's successful attempt → back: the connect itself (server and client work, queues). */
  connectMs: Distribution;
  /** Failed attempts a phone made while the server was down or busy. */
  failedAttempts: Distribution;
  /** The first phase phones were shown after the restart (question: back in time; reveal: the question had closed). */
  firstPhaseAfter: Record<string, number>;
  /** Event-loop delay of the new server from answering again until the last phone was back. */
  eventLoop: EventLoopDelay;
  /** From the server answering until the last phone was back, and the CPU the server and the phones' process used meanwhile. */
  stormMs: number;
  serverCpuMs: number;
  phonesCpuMs: number;
  /** Connections the kernel dropped from full accept queues during the storm (machine-wide; NaN off Linux). */
  listenOverflows: number;
  confirmedLost: number;
  /** Phones that had not answered before the crash and answered after it. */
  answeredAfter: number;
  /** Phones with their result once the question closed (`answer_result`, or in the reveal's state). */
  results: number;
  /** Phones connected at the crash that never got a result (missed their turn, or nothing came). */
  withoutResult: number;
  errorsReceived: number;
}

/** A phone that reconnects like the web app (useSessionSocket): backoff from timings.ts, attempt reset on open. */
class StormPhone {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private stopped = false;
  questionId: string | null = null;
  confirmed: number | null = null;
  answerSent = false;
  /** performance.now() when it was back on the current asking after the crash. */
  backAtMs = Number.NaN;
  /** performance.now() when the attempt that brought it back started. */
  backAttemptAtMs = Number.NaN;
  lostConfirmed = false;
  answeredAfter = false;
  result = false;
  errors = 0;
  crashed = false;
  /** Had its first state before the kill: connected at the crash, so owed its turn (DESIGN §8). */
  sawState = false;
  inAtKill = false;
  /** The phase of the first session_state after the crash ('' until then). */
  firstPhaseAfter = '';
  /** Back in the reveal with its answer (it had answered before the crash). */
  backAfterClose = false;
  /** Back after the question closed without its answer. */
  missed = false;
  /** performance.now() when a socket opened after the crash. */
  openedAfterMs = Number.NaN;
  failedAttempts = 0;
  private attemptAtMs = Number.NaN;
  private opened = false;
  firstState: Promise<void>;
  private resolveFirst!: () => void;

  constructor(
    private readonly url: string,
    private readonly choice: number,
    private readonly answerDelayMs: () => number,
    /** 0: the web client's backoff; otherwise a random wait of 0–N ms before each attempt. */
    private readonly reconnectJitterMs = 0,
  ) {
    this.firstState = new Promise((resolve) => (this.resolveFirst = resolve));
  }

  connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.url, { perMessageDeflate: false, handshakeTimeout: CONNECT_TIMEOUT_MS });
    this.ws = ws;
    this.attemptAtMs = performance.now();
    this.opened = false;
    ws.on('open', () => {
      this.attempt = 0;
      this.opened = true;
      if (this.crashed && Number.isNaN(this.openedAfterMs)) this.openedAfterMs = performance.now();
    });
    ws.on('message', (data: Buffer) => this.onMessage(data));
    ws.on('error', () => undefined); // 'close' follows
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.crashed && !this.opened) this.failedAttempts++;
      if (this.stopped || PERMANENT_CLOSE_CODES.has(code)) return;
      const delayMs = this.reconnectJitterMs > 0 ? Math.random() * this.reconnectJitterMs : reconnectDelayMs(this.attempt);
      this.attempt++;
      setTimeout(() => this.connect(), delayMs);
    });
  }

  stop(): void {
    this.stopped = true;
    this.ws?.terminate();
  }

  private onMessage(data: Buffer): void {
    const text = data.toString();
    // Ticks and leaderboards are not needed: skip them unparsed.
    if (!text.startsWith('{"type":"session_state"') && !text.startsWith('{"type":"answer_') && !text.startsWith('{"type":"error"')) return;
    const m = JSON.parse(text);
    switch (m.type) {
      case 'session_state':
        this.sawState = true;
        this.resolveFirst();
        if (!this.crashed) {
          if (m.phase === 'question' && m.question.id !== this.questionId) {
            this.questionId = m.question.id;
            setTimeout(() => this.answer(), this.answerDelayMs());
          }
          return;
        }
        if (this.firstPhaseAfter !== '') return;
        this.firstPhaseAfter = m.phase;
        this.backAtMs = performance.now();
        this.backAttemptAtMs = this.attemptAtMs;
        // Back on the current asking: its question (a phone the question had not reached before
        // the kill gets it now) or its reveal. Anything else: the question went by without it.
        if ((m.phase !== 'question' && m.phase !== 'reveal') || (this.questionId !== null && m.question?.id !== this.questionId)) {
          this.missed = true;
          return;
        }
        this.questionId = m.question.id;
        if (this.confirmed !== null && (!m.answered || m.selectedIndex !== this.confirmed)) this.lostConfirmed = true;
        if (m.phase === 'reveal') {
          if (m.answered) this.backAfterClose = true;
          else this.missed = true;
          if (m.answerResult) this.result = true;
          return;
        }
        if (!m.answered) {
          this.answeredAfter = true;
          this.answer();
        }
        return;
      case 'answer_accepted':
        this.confirmed = m.selectedIndex;
        return;
      case 'answer_result':
        this.result = true;
        return;
      case 'error':
        this.errors++;
        return;
    }
  }

  private answer(): void {
    if (this.ws?.readyState !== WebSocket.OPEN || !this.questionId) return;
    this.answerSent = true;
    this.ws.send(JSON.stringify({ type: 'submit_answer', questionId: this.questionId, selectedIndex: this.choice }));
  }
}

/** How often the port is tried while the server restarts. */
const ACCEPT_POLL_MS = 5;

/**
 * Resolves with performance.now() at the first TCP connection the port accepts: the moment a
 * phone's attempt can first get through. Each try is closed at once (the server sees an idle
 * connection go away).
 */
async function whenAccepting(port: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const acceptedAt = await new Promise<number | null>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        resolve(performance.now());
        socket.destroy();
      });
      socket.once('error', () => resolve(null));
    });
    if (acceptedAt !== null) return acceptedAt;
    if (performance.now() > deadline) throw new Error(`port ${port} did not accept within ${timeoutMs / 1000} s`);
    await sleep(ACCEPT_POLL_MS);
  }
}

export async function runRestart(
  players: number,
  outDir: string,
  log: (line: string) => void,
  options: RestartOptions = DEFAULT_RESTART_OPTIONS,
  label = `restart-${players}`,
): Promise<RestartResult> {
  const logDir = path.join(outDir, 'logs');
  const openFiles = descriptorsFor(players + 2);
  const { env } = options;
  let server: RunningTarget | undefined = await startTarget('marquee', { logDir, label, openFiles, env });
  const phones: StormPhone[] = [];
  try {
    const game = await setUpGame(server.baseUrl, ADMIN_PASSWORD, 1, 1);
    const [sessionId] = game.sessionIds;
    const registered = await registerPlayers(server.baseUrl, game.sessionIds, players, 16, randomBytes(4).toString('hex'));
    log(`  registered ${players} phones`);
    const wsBase = server.baseUrl.replace(/^http/, 'ws');
    const admin = new Screen();
    admin.ws = await openSocket(`${wsBase}/ws?${new URLSearchParams({ sessionId, type: 'admin', token: game.adminToken })}`, admin.onFrame);
    admin.ws.on('error', () => undefined);
    admin.send({ type: 'admin_pause' });
    for (const [i, player] of registered.entries()) {
      const query = new URLSearchParams({ sessionId, type: 'player', playerId: player.id, playerToken: player.playerToken });
      phones.push(new StormPhone(`${wsBase}/ws?${query}`, i % 4, () => Math.random() * ANSWER_WINDOW_MS, options.reconnectJitterMs));
    }
    // Latecomers come in once the question is open: they are on no roster it started with.
    const latecomers = Math.round(players * options.lateShare);
    const early = phones.slice(0, players - latecomers);
    // Connect in waves of 100, like the main bench.
    for (let i = 0; i < early.length; i += 100) {
      const wave = early.slice(i, i + 100);
      for (const phone of wave) phone.connect();
      await Promise.all(wave.map((p) => p.firstState));
    }
    log(`  connected ${early.length} phones`);
    await sleep(1_500);

    const [minKillMs, maxKillMs] = options.killAfterMs;
    const killAfterMs = Math.round(minKillMs + Math.random() * (maxKillMs - minKillMs));
    admin.send({ type: 'admin_next_question' });
    const sentAt = performance.now();
    if (early.length > 0) await until(() => early.some((p) => p.questionId !== null), STORM_TIMEOUT_MS);
    for (const phone of phones.slice(early.length)) phone.connect();
    await sleep(Math.max(0, sentAt + killAfterMs - performance.now()));
    await server.kill('SIGKILL');
    const killedAt = performance.now();
    for (const phone of phones) {
      phone.crashed = true;
      phone.inAtKill = phone.sawState;
    }
    const confirmedBeforeKill = phones.filter((p) => p.confirmed !== null).length;
    // A latecomer whose socket was not open yet at the kill was not connected: it counts like the others once back.
    log(`  killed the server ${killAfterMs} ms into the question (${latecomers} latecomers): ${confirmedBeforeKill} answers confirmed`);

    const { port, dataDir } = server;
    const overflowsBefore = readListenOverflows();
    // Watched from the spawn on: the event-loop window starts when the port accepts, as the storm does.
    let accepting!: Promise<number>;
    server = await startTarget('marquee', {
      logDir,
      label,
      openFiles,
      env,
      reuse: { port, dataDir },
      onSpawned: ({ probe }) => {
        accepting = whenAccepting(port, STORM_TIMEOUT_MS).then(async (atMs) => {
          await probe({ resetEventLoop: true });
          return atMs;
        });
        accepting.catch(() => undefined); // awaited below; startTarget failing reports first
      },
    });
    const answeringAt = await accepting;
    const serverCpuBefore = readCpuSeconds(server.pid);
    const phonesCpuBefore = process.cpuUsage();
    log(`  the server answers again ${((answeringAt - killedAt) / 1000).toFixed(1)} s after the kill`);

    await until(() => phones.every((p) => !Number.isNaN(p.backAtMs)), STORM_TIMEOUT_MS);
    const { eventLoop } = await server.probe({ resetEventLoop: true });
    const stormMs = performance.now() - answeringAt;
    const serverCpuMs = (readCpuSeconds(server.pid) - serverCpuBefore) * 1000;
    const phonesCpu = process.cpuUsage(phonesCpuBefore);
    const listenOverflows = readListenOverflows() - overflowsBefore;
    const back = phones.filter((p) => !Number.isNaN(p.backAtMs));
    const backMs = back.map((p) => p.backAtMs - answeringAt);
    const backSorted = [...backMs].sort((a, b) => a - b);
    const back99Ms = backSorted.length >= Math.ceil(players * 0.99) ? backSorted[Math.ceil(players * 0.99) - 1] : Number.POSITIVE_INFINITY;
    const back100Ms = backSorted.length === players ? backSorted[players - 1] : Number.POSITIVE_INFINITY;

    // Not thrown on: phones left without a result are the figure this scenario exists to report.
    await until(() => phones.every((p) => p.result || p.missed || !p.inAtKill), RESULTS_TIMEOUT_MS);
    return {
      players,
      killAfterMs,
      latecomers,
      confirmedBeforeKill,
      restartMs: round(answeringAt - killedAt, 0),
      backMs: distribution(backMs),
      back99Ms: round(back99Ms, 0),
      back100Ms: round(back100Ms, 0),
      phonesNotBack: players - back.length,
      backAfterCloseAnswered: phones.filter((p) => p.backAfterClose).length,
      missedTheQuestion: phones.filter((p) => p.inAtKill && p.missed).length,
      openMs: distribution(phones.filter((p) => !Number.isNaN(p.openedAfterMs)).map((p) => p.openedAfterMs - answeringAt)),
      connectMs: distribution(back.map((p) => p.backAtMs - p.backAttemptAtMs)),
      failedAttempts: distribution(phones.map((p) => p.failedAttempts)),
      firstPhaseAfter: phones.reduce<Record<string, number>>((acc, p) => ({ ...acc, [p.firstPhaseAfter || 'none']: (acc[p.firstPhaseAfter || 'none'] ?? 0) + 1 }), {}),
      eventLoop,
      stormMs: round(stormMs, 0),
      serverCpuMs: round(serverCpuMs, 0),
      phonesCpuMs: round((phonesCpu.user + phonesCpu.system) / 1000, 0),
      listenOverflows,
      confirmedLost: phones.filter((p) => p.lostConfirmed).length,
      answeredAfter: phones.filter((p) => p.answeredAfter).length,
      results: phones.filter((p) => p.result).length,
      withoutResult: phones.filter((p) => p.inAtKill && !p.result).length,
      errorsReceived: phones.reduce((sum, p) => sum + p.errors, 0),
    };
  } finally {
    for (const phone of phones) phone.stop();
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

export function formatRestart(r: RestartResult): string {
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const ms = (v: number) => (Number.isFinite(v) ? `${(v / 1000).toFixed(2)} s` : 'never');
  return [
    `Reconnect storm: ${r.players} phones (${r.latecomers} joining the open question), SIGKILL ${r.killAfterMs} ms into it, restarted at once`,
    `| figure | value |`,
    `|---|--:|`,
    `| answers confirmed before the kill | ${r.confirmedBeforeKill} |`,
    `| kill → server answering again (port accepting) | ${ms(r.restartMs)} |`,
    `| back after the server answered: p50 / 99 % / 100 % | ${ms(r.backMs.p50)} / ${ms(r.back99Ms)} / ${ms(r.back100Ms)} |`,
    `| of which back in the reveal, having answered before the crash / missed the question | ${r.backAfterCloseAnswered} / ${r.missedTheQuestion} |`,
    `| socket open after the server answered: p50 / p99 / max | ${ms(r.openMs.p50)} / ${ms(r.openMs.p99)} / ${ms(r.openMs.max)} |`,
    `| connecting (successful attempt → first state): p50 / p99 / max | ${ms(r.connectMs.p50)} / ${ms(r.connectMs.p99)} / ${ms(r.connectMs.max)} |`,
    `| failed attempts per phone: p50 / max | ${r.failedAttempts.p50} / ${r.failedAttempts.max} |`,
    `| phones not back within ${STORM_TIMEOUT_MS / 1000} s | ${r.phonesNotBack} (first state after the restart: ${Object.entries(r.firstPhaseAfter).map(([k, v]) => `${k} ${v}`).join(', ')}) |`,
    `| server event-loop delay during the storm p50 / p99 / max | ${r.eventLoop.p50} / ${r.eventLoop.p99} / ${r.eventLoop.max} ms |`,
    `| CPU during the storm (${ms(r.stormMs)}): server / phones' process | ${ms(r.serverCpuMs)} / ${ms(r.phonesCpuMs)} |`,
    `| connections dropped by full accept queues (kernel, whole machine) | ${Number.isNaN(r.listenOverflows) ? 'unknown' : r.listenOverflows} |`,
    `| confirmed answers lost | ${r.confirmedLost} |`,
    `| phones answering after the restart / results received | ${r.answeredAfter} / ${r.results} of ${r.players} |`,
    `| phones without a result (denied their turn) | ${r.withoutResult} |`,
    `| error messages received | ${r.errorsReceived} |`,
    '',
    `Targets: 99 % back within ${RESTART_TARGETS.back99WithinMs / 1000} s: ${met(r.back99Ms <= RESTART_TARGETS.back99WithinMs)}; ` +
      `event-loop p99 under ${RESTART_TARGETS.eventLoopP99Ms} ms: ${met(r.eventLoop.p99 < RESTART_TARGETS.eventLoopP99Ms)}; ` +
      `confirmed answers lost 0: ${met(r.confirmedLost === RESTART_TARGETS.confirmedLost)}; ` +
      `phones without a result 0: ${met(r.withoutResult === 0 && r.missedTheQuestion === 0)}`,
  ].join('\n');
}

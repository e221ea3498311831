/**
 * The reconnect storm (`npm run bench -- restart 2000`): N phones in a live question, the server
 * killed with SIGKILL 0.6 s into the question (phones answering), started again at once on the
 * same data and port, and every phone coming back with the web client's real backoff
 * (web/common/realtime/timings.ts: 1 s, then 1–2 s, 2–4 s, 2.5–5 s, jittered).
 *
 * Figures: the time from the server answering HTTP again until 99 % and 100 % of phones are back
 * on the current question; the server's event-loop delay from that moment until the last phone is
 * back; confirmed answers lost (a phone that had `answer_accepted` and came back unlocked, or with
 * another choice). The phones run in this process; the server is Marquee as `npm start` runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { CONNECT_TIMEOUT_MS, PERMANENT_CLOSE_CODES, reconnectDelayMs } from '../web/common/realtime/timings.js';
import { registerPlayers, setUpGame } from './api.js';
import { openSocket, Screen } from './clients.js';
import { descriptorsFor } from './open-files.js';
import type { EventLoopDelay } from './probe.js';
import { sleep, until } from './wait.js';
import { distribution, round, type Distribution } from './stats.js';
import { ADMIN_PASSWORD, startTarget, type RunningTarget } from './targets.js';

/** The issue's targets (DESIGN §8 / issue 10). */
export const RESTART_TARGETS = { back99WithinMs: 6_000, eventLoopP99Ms: 50, confirmedLost: 0 };

const KILL_AFTER_MS = 600;
const ANSWER_WINDOW_MS = 1_000;
const STORM_TIMEOUT_MS = 60_000;
const RESULTS_TIMEOUT_MS = 30_000;

export interface RestartResult {
  players: number;
  /** Phones holding an `answer_accepted` when the server was killed. */
  confirmedBeforeKill: number;
  /** SIGKILL → the new process answering HTTP (its start-up, migrations included). */
  restartMs: number;
  /** Server answering again → each phone back on the current question. */
  backMs: Distribution;
  back99Ms: number;
  back100Ms: number;
  phonesNotBack: number;
  /** Server answering again → each phone's socket open (the handshake done, before its state). */
  openMs: Distribution;
  /** The first phase phones were shown after the restart (question: back in time; reveal: the question had closed). */
  firstPhaseAfter: Record<string, number>;
  /** Event-loop delay of the new server from answering again until the last phone was back. */
  eventLoop: EventLoopDelay;
  confirmedLost: number;
  /** Phones that had not answered before the crash and answered after it. */
  answeredAfter: number;
  /** Phones with their `answer_result` once the question closed. */
  results: number;
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
  /** performance.now() when it was back on the current question after the crash. */
  backAtMs = Number.NaN;
  lostConfirmed = false;
  answeredAfter = false;
  result = false;
  errors = 0;
  crashed = false;
  /** The phase of the first session_state after the crash ('' until then). */
  firstPhaseAfter = '';
  /** performance.now() when a socket opened after the crash. */
  openedAfterMs = Number.NaN;
  firstState: Promise<void>;
  private resolveFirst!: () => void;

  constructor(
    private readonly url: string,
    private readonly choice: number,
    private readonly answerDelayMs: () => number,
  ) {
    this.firstState = new Promise((resolve) => (this.resolveFirst = resolve));
  }

  connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.url, { perMessageDeflate: false, handshakeTimeout: CONNECT_TIMEOUT_MS });
    this.ws = ws;
    ws.on('open', () => {
      this.attempt = 0;
      if (this.crashed && Number.isNaN(this.openedAfterMs)) this.openedAfterMs = performance.now();
    });
    ws.on('message', (data: Buffer) => this.onMessage(data));
    ws.on('error', () => undefined); // 'close' follows
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped || PERMANENT_CLOSE_CODES.has(code)) return;
      setTimeout(() => this.connect(), reconnectDelayMs(this.attempt++));
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
        this.resolveFirst();
        if (this.crashed && this.firstPhaseAfter === '') this.firstPhaseAfter = m.phase;
        if (m.phase !== 'question') return;
        if (!this.crashed) {
          if (m.question.id !== this.questionId) {
            this.questionId = m.question.id;
            setTimeout(() => this.answer(), this.answerDelayMs());
          }
          return;
        }
        if (!Number.isNaN(this.backAtMs)) return;
        // Back on the current question (a phone the question had not reached before the kill gets it now).
        if (this.questionId !== null && m.question.id !== this.questionId) return;
        this.questionId = m.question.id;
        this.backAtMs = performance.now();
        if (this.confirmed !== null && (!m.answered || m.selectedIndex !== this.confirmed)) this.lostConfirmed = true;
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

export async function runRestart(players: number, outDir: string, log: (line: string) => void): Promise<RestartResult> {
  const logDir = path.join(outDir, 'logs');
  const label = `restart-${players}`;
  const openFiles = descriptorsFor(players + 2);
  let server: RunningTarget | undefined = await startTarget('marquee', { logDir, label, openFiles });
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
      phones.push(new StormPhone(`${wsBase}/ws?${query}`, i % 4, () => Math.random() * ANSWER_WINDOW_MS));
    }
    // Connect in waves of 100, like the main bench.
    for (let i = 0; i < phones.length; i += 100) {
      const wave = phones.slice(i, i + 100);
      for (const phone of wave) phone.connect();
      await Promise.all(wave.map((p) => p.firstState));
    }
    log(`  connected ${players} phones`);
    await sleep(1_500);

    admin.send({ type: 'admin_next_question' });
    await sleep(KILL_AFTER_MS);
    await server.kill('SIGKILL');
    const killedAt = performance.now();
    for (const phone of phones) phone.crashed = true;
    const confirmedBeforeKill = phones.filter((p) => p.confirmed !== null).length;
    log(`  killed the server ${KILL_AFTER_MS} ms into the question: ${confirmedBeforeKill} answers confirmed`);

    server = await startTarget('marquee', { logDir, label, openFiles, reuse: { port: server.port, dataDir: server.dataDir } });
    const answeringAt = performance.now();
    await server.probe({ resetEventLoop: true });
    log(`  the server answers again ${((answeringAt - killedAt) / 1000).toFixed(1)} s after the kill`);

    await until(() => phones.every((p) => !Number.isNaN(p.backAtMs)), STORM_TIMEOUT_MS);
    const { eventLoop } = await server.probe({ resetEventLoop: true });
    const backMs = phones.filter((p) => !Number.isNaN(p.backAtMs)).map((p) => p.backAtMs - answeringAt);
    const backSorted = [...backMs].sort((a, b) => a - b);
    const back99Ms = backSorted.length >= Math.ceil(players * 0.99) ? backSorted[Math.ceil(players * 0.99) - 1] : Number.POSITIVE_INFINITY;
    const back100Ms = backSorted.length === players ? backSorted[players - 1] : Number.POSITIVE_INFINITY;

    await until(() => phones.every((p) => p.result), RESULTS_TIMEOUT_MS);
    return {
      players,
      confirmedBeforeKill,
      restartMs: round(answeringAt - killedAt, 0),
      backMs: distribution(backMs),
      back99Ms: round(back99Ms, 0),
      back100Ms: round(back100Ms, 0),
      phonesNotBack: players - backMs.length,
      openMs: distribution(phones.filter((p) => !Number.isNaN(p.openedAfterMs)).map((p) => p.openedAfterMs - answeringAt)),
      firstPhaseAfter: phones.reduce<Record<string, number>>((acc, p) => ({ ...acc, [p.firstPhaseAfter || 'none']: (acc[p.firstPhaseAfter || 'none'] ?? 0) + 1 }), {}),
      eventLoop,
      confirmedLost: phones.filter((p) => p.lostConfirmed).length,
      answeredAfter: phones.filter((p) => p.answeredAfter).length,
      results: phones.filter((p) => p.result).length,
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
    `Reconnect storm: ${r.players} phones, SIGKILL ${KILL_AFTER_MS} ms into a question, restarted at once`,
    `| figure | value |`,
    `|---|--:|`,
    `| answers confirmed before the kill | ${r.confirmedBeforeKill} |`,
    `| kill → server answering again | ${ms(r.restartMs)} |`,
    `| back on the question after the server answered: p50 / 99 % / 100 % | ${ms(r.backMs.p50)} / ${ms(r.back99Ms)} / ${ms(r.back100Ms)} |`,
    `| socket open after the server answered: p50 / p99 / max | ${ms(r.openMs.p50)} / ${ms(r.openMs.p99)} / ${ms(r.openMs.max)} |`,
    `| phones not back on the question within ${STORM_TIMEOUT_MS / 1000} s | ${r.phonesNotBack} (first state after the restart: ${Object.entries(r.firstPhaseAfter).map(([k, v]) => `${k} ${v}`).join(', ')}) |`,
    `| server event-loop delay during the storm p50 / p99 / max | ${r.eventLoop.p50} / ${r.eventLoop.p99} / ${r.eventLoop.max} ms |`,
    `| confirmed answers lost | ${r.confirmedLost} |`,
    `| phones answering after the restart / results received | ${r.answeredAfter} / ${r.results} of ${r.players} |`,
    `| error messages received | ${r.errorsReceived} |`,
    '',
    `Targets: 99 % back within ${RESTART_TARGETS.back99WithinMs / 1000} s: ${met(r.back99Ms <= RESTART_TARGETS.back99WithinMs)}; ` +
      `event-loop p99 under ${RESTART_TARGETS.eventLoopP99Ms} ms: ${met(r.eventLoop.p99 < RESTART_TARGETS.eventLoopP99Ms)}; ` +
      `confirmed answers lost 0: ${met(r.confirmedLost === RESTART_TARGETS.confirmedLost)}`,
  ].join('\n');
}

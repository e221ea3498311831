/**
 * Longer than ~300 lines on purpose: the generator is one process and one clock; its set-up,
 * rounds and reports read as one story.
 *
 * The load generator, its own process (started by the runner with an IPC channel). It plays the
 * audience: registers N phones through the API, opens N player sockets plus a display and an admin
 * socket per session, then plays R rounds. A round: every admin sends `admin_next_question` (all
 * sessions in the same tick); each phone stamps the question's arrival and answers at a random
 * moment within the answer window; when every connected phone has answered the server ends the
 * question early and each phone stamps its `answer_result`. One clock, this process's
 * performance.now(), stamps every send and every arrival.
 */
import { performance } from 'node:perf_hooks';
import { SLIDE_MS } from '../server/game/engine/timing.js';
import { pool, registerPlayers, setUpGame, timeLiveOverview } from './api.js';
import { Countdown, openSocket, Phone, Screen } from './clients.js';
import { runFailover } from './failover.js';
import { warmUpGenerator } from './generator-warmup.js';
import type { FailoverFigures, GeneratorConfig, GeneratorMessage, ProbeOptions, RoundFigures, RunnerMessage, ServerReading, TargetResult } from './ipc.js';
import { distribution, mean, round } from './stats.js';
import { sleep } from './wait.js';

const FAN_OUT_TIMEOUT_MS = 15_000;
/** Requests of the operators' overview timed after the idle window (a Live now panel polls every 2 s). */
const LIVE_OVERVIEW_REQUESTS = 20;

function send(message: GeneratorMessage, then?: () => void): void {
  process.send?.(message, undefined, {}, () => then?.());
}
const progress = (text: string) => send({ type: 'progress', text });

let probeSeq = 0;
const pendingProbes = new Map<number, (reading: ServerReading) => void>();

/** Asks the runner to read the server (RSS, CPU, event-loop delay window). */
function probe(options: ProbeOptions = {}): Promise<ServerReading> {
  const id = ++probeSeq;
  return new Promise((resolve) => {
    pendingProbes.set(id, resolve);
    send({ type: 'probe', id, ...options });
  });
}

const pendingKills = new Map<number, (reply: Extract<RunnerMessage, { type: 'killed' }>) => void>();

/** Asks the runner to SIGKILL the instance owning the first session (the failover step). */
function killOwner(sessionIds: string[]): Promise<{ instanceIndex: number; instanceId: string }> {
  const id = ++probeSeq;
  return new Promise((resolve, reject) => {
    pendingKills.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
    send({ type: 'kill-owner', id, sessionIds });
  });
}

/** Small deterministic PRNG (mulberry32), so two runs ask the same answer pattern. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}


function wsUrl(baseUrl: string, query: Record<string, string>): string {
  return `${baseUrl.replace(/^http/, 'ws')}/ws?${new URLSearchParams(query)}`;
}

/**
 * Every operator presses Next; with `staggerMs` the presses are spread evenly over that long
 * (the fan-out of each session is timed from its own press). Resolves with the press times once
 * all are sent.
 */
async function pressNext(admins: Screen[], staggerMs: number): Promise<number[]> {
  if (staggerMs <= 0) return admins.map((admin) => admin.send({ type: 'admin_next_question' }));
  const sentAt = new Array<number>(admins.length);
  const startMs = performance.now();
  await Promise.all(
    admins.map(
      (admin, s) =>
        new Promise<void>((resolve) => {
          const dueMs = (s * staggerMs) / admins.length;
          setTimeout(() => {
            sentAt[s] = admin.send({ type: 'admin_next_question' });
            resolve();
          }, Math.max(0, startMs + dueMs - performance.now()));
        }),
    ),
  );
  return sentAt;
}

async function run(config: GeneratorConfig): Promise<TargetResult> {
  const rng = random(config.seed);
  const totalRounds = config.warmupRounds + config.rounds;
  await warmUpGenerator();
  const beforeSetup = await probe({ gc: true, window: { name: 'setup', at: 'start' } });
  const setupStartedMs = performance.now();
  // The failover step asks one more question.
  const game = await setUpGame(config.baseUrl, config.adminPassword, config.sessions, totalRounds + (config.failover ? 1 : 0), config.setupConcurrency);
  const sessionsSetupMs = performance.now() - setupStartedMs;
  progress(`set up ${game.sessionIds.length} sessions in ${(sessionsSetupMs / 1000).toFixed(1)} s`);

  // Every session is live from here: registration starts, and the intro slides run (below).
  const startedMs = performance.now();
  const registered = await registerPlayers(config.baseUrl, game.sessionIds, config.players, config.registerConcurrency, config.runTag);
  const registeredMs = performance.now();
  progress(`registered ${registered.length} phones in ${((registeredMs - startedMs) / 1000).toFixed(1)} s`);
  // The server's own CPU for the setup: on a shared, loaded machine the wall time is mostly waiting.
  const afterSetup = await probe({ window: { name: 'setup', at: 'end' } });

  const admins: Screen[] = [];
  const displays: Screen[] = [];
  await pool(game.sessionIds.length, config.setupConcurrency, async (s) => {
    const sessionId = game.sessionIds[s];
    const admin = new Screen();
    admin.ws = await openSocket(wsUrl(config.baseUrl, { sessionId, type: 'admin', token: game.adminToken }), admin.onFrame);
    // Auto-play is off from creation; pausing as well makes sure the admin alone drives the rounds.
    admin.send({ type: 'admin_pause' });
    const display = new Screen();
    display.ws = await openSocket(wsUrl(config.baseUrl, { sessionId, type: 'display' }), display.onFrame);
    admins[s] = admin;
    displays[s] = display;
  });

  const beforeConnect = await probe({ gc: true });
  // Round hooks, replaced at the start of every round.
  const hooks = { question: (_phone: Phone) => {}, result: (_phone: Phone) => {} };
  const sessionIndex = new Map(game.sessionIds.map((id, s) => [id, s]));
  const phones = registered.map(
    (player) => new Phone(player.id, sessionIndex.get(player.sessionId)!, { question: (p) => hooks.question(p), result: (p) => hooks.result(p) }),
  );
  let connectFailures = 0;
  const connectStartMs = performance.now();
  await pool(phones.length, config.connectConcurrency, async (i) => {
    const phone = phones[i];
    const player = registered[i];
    try {
      const urls = config.socketUrls ?? [config.baseUrl];
      phone.ws = await openSocket(
        wsUrl(urls[i % urls.length], { sessionId: player.sessionId, type: 'player', playerId: player.id, playerToken: player.playerToken }),
        phone.onFrame,
      );
      phone.ws.on('close', () => (phone.dropped = true));
    } catch {
      connectFailures++;
    }
  });
  const connectedMs = performance.now();
  progress(`connected ${phones.length - connectFailures} phones in ${((connectedMs - connectStartMs) / 1000).toFixed(1)} s`);
  // The generator's own garbage from registering and connecting (a full collection and
  // scavenges of a young generation full of it fell into the first round) is collected now,
  // as the server's is by the probe below: the rounds measure the server, not the generator.
  globalThis.gc?.();
  await sleep(config.settleMs);
  let idleCpuPercent: number | null = null;
  if (config.idleMs > 0) {
    // Each session opened on its intro slide, which ends SLIDE_MS after the start: a state to every
    // socket and a commit, session by session. That is the game moving, not idle; on a fast machine
    // the setup was quick enough for those ends to fall inside the window (Marquee's idle CPU went
    // 1.0x to 1.7x the baseline's from one machine to another). The window opens after the last.
    // Often passed already on a slow machine (a negative timeout is a warning, and means 1 ms).
    await sleep(Math.max(0, startedMs + SLIDE_MS + config.settleMs - performance.now()));
    // Everyone in their seat, nothing on the move: what the server spends keeping them (heartbeats, timers).
    // The setup's garbage is collected first, as before the rounds: the full collection V8 would
    // otherwise finish in the window (the setup grew the old generation) is the setup's cost.
    const idleStart = await probe({ gc: true, window: { name: 'idle', at: 'start' } });
    await sleep(config.idleMs);
    const idleEnd = await probe({ window: { name: 'idle', at: 'end' } });
    idleCpuPercent = round(((idleEnd.cpuSeconds - idleStart.cpuSeconds) * 100_000) / config.idleMs, 2);
    progress(`idle: ${idleCpuPercent} % of a core over ${config.idleMs / 1000} s`);
  }
  // What the Live now panel costs at this many games (DESIGN §18); the baseline has no such endpoint.
  const overview = config.target === 'baseline' ? null : await timeLiveOverview(config.baseUrl, game.adminToken, LIVE_OVERVIEW_REQUESTS);
  const connected = await probe({ gc: true, rounds: 'start' });

  const fanOut: number[] = [];
  const results: number[] = [];
  const endAtDisplay: number[] = [];
  const acks: number[] = [];
  const perRound: RoundFigures[] = [];
  let questionsMissed = 0;

  for (let r = 0; r < totalRounds; r++) {
    const live = phones.filter((p) => p.ws && !p.dropped);
    const previousQuestion = live.map((p) => p.questionId);

    const cpuBefore = process.cpuUsage();
    await probe({ resetEventLoop: true, markRound: true });
    const before = await probe();
    const roundStartedMs = performance.now();
    // The deadlines start with Next, not before the probes (a busy server answers them late).
    const fanOutDone = new Countdown(live.length, FAN_OUT_TIMEOUT_MS);
    const resultsDone = new Countdown(live.length, config.roundTimeoutMs);
    hooks.question = (phone) => {
      fanOutDone.tick();
      const selectedIndex = Math.floor(rng() * 4);
      setTimeout(() => phone.answer(selectedIndex), rng() * config.answerWindowMs);
    };
    hooks.result = () => resultsDone.tick();
    const nextSentAt = await pressNext(admins, config.staggerMs);
    const fannedOut = await fanOutDone.done;
    const duringFanOut = await probe({ resetEventLoop: true });
    const resultsComplete = await resultsDone.done;
    const after = await probe({ resetEventLoop: true });
    const roundSeconds = (performance.now() - roundStartedMs) / 1000;
    const generatorCpu = process.cpuUsage(cpuBefore);

    const warmup = r < config.warmupRounds;
    progress(`${warmup ? 'warm-up ' : ''}round ${r + 1}/${totalRounds}: ${resultsComplete ? 'all results in' : 'timed out waiting for results'}`);
    if (r < totalRounds - 1) await sleep(config.settleMs);
    if (warmup) continue;

    const lastAnswerAt = game.sessionIds.map(() => Number.NEGATIVE_INFINITY);
    for (const phone of live) {
      if (!Number.isNaN(phone.answerSentAtMs)) lastAnswerAt[phone.sessionIndex] = Math.max(lastAnswerAt[phone.sessionIndex], phone.answerSentAtMs);
    }
    let answersSent = 0;
    let answersLost = 0;
    const roundFanOut: number[] = [];
    const roundResults: number[] = [];
    live.forEach((phone, i) => {
      if (phone.questionId === previousQuestion[i]) {
        questionsMissed++;
        return;
      }
      roundFanOut.push(phone.questionAtMs - nextSentAt[phone.sessionIndex]);
      if (Number.isNaN(phone.answerSentAtMs)) return;
      answersSent++;
      if (!Number.isNaN(phone.acceptedAtMs)) acks.push(phone.acceptedAtMs - phone.answerSentAtMs);
      if (Number.isNaN(phone.resultAtMs)) answersLost++;
      else roundResults.push(phone.resultAtMs - lastAnswerAt[phone.sessionIndex]);
    });
    fanOut.push(...roundFanOut);
    results.push(...roundResults);
    displays.forEach((display, s) => {
      const questionId = live.find((p) => p.sessionIndex === s)?.questionId;
      const endAt = questionId ? display.questionEndAtMs.get(questionId) : undefined;
      if (endAt !== undefined) endAtDisplay.push(endAt - lastAnswerAt[s]);
    });
    perRound.push({
      fanOutMs: distribution(roundFanOut),
      resultMs: distribution(roundResults),
      fannedOut,
      resultsComplete,
      serverCpuSeconds: round(after.cpuSeconds - before.cpuSeconds, 2),
      serverMainThreadCpuSeconds: round(after.mainThreadCpuSeconds - before.mainThreadCpuSeconds, 2),
      serverMainThreadWaitSeconds: round(after.mainThreadWaitSeconds - before.mainThreadWaitSeconds, 2),
      wallSeconds: round(roundSeconds, 2),
      writeSyscallsPerPhone: round((after.writeSyscalls - before.writeSyscalls) / Math.max(1, roundFanOut.length), 2),
      generatorCpuSeconds: round((generatorCpu.user + generatorCpu.system) / 1e6, 2),
      eventLoopDuringFanOut: duringFanOut.eventLoop,
      eventLoopDuringAnswers: after.eventLoop,
      answersSent,
      answersLost,
    });
  }

  await probe({ rounds: 'end' });
  let failover: Omit<FailoverFigures, 'leaseMs'> | undefined;
  if (config.failover && config.socketUrls) {
    await sleep(config.settleMs);
    progress('failover: killing the owner mid-question');
    failover = await runFailover({
      phones,
      registered,
      urls: config.socketUrls,
      admins,
      answerWindowMs: config.answerWindowMs,
      random: rng,
      progress,
      killOwner: () => killOwner(game.sessionIds),
    });
    progress(`failover: ${failover.phonesOnKilled} phones were on ${failover.killedInstance}; ${failover.phonesNotBack} not back; ${failover.results} of ${failover.phones} results`);
  }
  for (const socket of [...phones, ...displays, ...admins]) socket.ws?.terminate();
  const phonesConnected = Math.max(1, phones.length - connectFailures);
  const rssPerPlayerKb = (connected.rssKb - beforeConnect.rssKb) / phonesConnected;
  const heapPerPlayerKb = (connected.heapUsedKb - beforeConnect.heapUsedKb) / phonesConnected;
  return {
    target: config.target,
    players: config.players,
    sessions: config.sessions,
    rounds: config.rounds,
    setupSeconds: round((sessionsSetupMs + registeredMs - startedMs) / 1000, 2),
    sessionsSetupSeconds: round(sessionsSetupMs / 1000, 2),
    setupServerCpuSeconds: round(afterSetup.cpuSeconds - beforeSetup.cpuSeconds, 2),
    idleCpuPercent,
    liveOverviewMs: overview && distribution(overview.ms),
    liveOverviewGames: overview && overview.games,
    rssPerSessionKb: round((connected.rssKb - beforeSetup.rssKb) / Math.max(1, config.sessions), 1),
    registerSeconds: round((registeredMs - startedMs) / 1000, 2),
    connectSeconds: round((connectedMs - connectStartMs) / 1000, 2),
    registerConnectSeconds: round((connectedMs - startedMs) / 1000, 2),
    connectFailures,
    rssBeforeConnectKb: beforeConnect.rssKb,
    rssConnectedKb: connected.rssKb,
    rssPerPlayerKb: round(rssPerPlayerKb, 1),
    heapPerPlayerKb: round(heapPerPlayerKb, 1),
    fanOutMs: distribution(fanOut),
    resultMs: distribution(results),
    questionEndAtDisplayMs: distribution(endAtDisplay),
    answerAckMs: distribution(acks),
    answersSent: perRound.reduce((sum, r) => sum + r.answersSent, 0),
    answersLost: perRound.reduce((sum, r) => sum + r.answersLost, 0),
    questionsMissed,
    errorsReceived: phones.reduce((sum, p) => sum + p.errors, 0),
    phonesDropped: phones.filter((p) => p.dropped).length,
    roundsCompleted: perRound.filter((r) => r.fannedOut && r.resultsComplete).length,
    serverCpuSecondsPerRound: round(mean(perRound.map((r) => r.serverCpuSeconds)), 2),
    serverMainThreadCpuSecondsPerRound: round(mean(perRound.map((r) => r.serverMainThreadCpuSeconds)), 2),
    serverMainThreadWaitSecondsPerRound: round(mean(perRound.map((r) => r.serverMainThreadWaitSeconds)), 2),
    writeSyscallsPerPhonePerRound: round(mean(perRound.map((r) => r.writeSyscallsPerPhone)), 2),
    generatorCpuSecondsPerRound: round(mean(perRound.map((r) => r.generatorCpuSeconds)), 2),
    wallSecondsPerRound: round(mean(perRound.map((r) => r.wallSeconds)), 2),
    eventLoopP99Ms: Math.max(...perRound.map((r) => r.eventLoopDuringAnswers.p99)),
    // The whole round: a stall while the question goes out (answers already coming in) ends in the fan-out window.
    eventLoopMaxMs: Math.max(...perRound.map((r) => Math.max(r.eventLoopDuringFanOut.max, r.eventLoopDuringAnswers.max))),
    perRound,
    // The runner adds the lease's change of hands, which it times itself.
    failover: failover && { ...failover, leaseMs: null },
  };
}

process.on('message', (raw: unknown) => {
  const message = raw as RunnerMessage;
  if (message.type === 'probe') {
    pendingProbes.get(message.id)?.(message.reading);
    pendingProbes.delete(message.id);
    return;
  }
  if (message.type === 'killed') {
    pendingKills.get(message.id)?.(message);
    pendingKills.delete(message.id);
    return;
  }
  if (message.type === 'run') {
    run(message.config).then(
      (result) => {
        send({ type: 'result', result }, () => process.disconnect());
      },
      (err: unknown) => {
        send({ type: 'failed', message: err instanceof Error ? err.stack ?? err.message : String(err) }, () => process.disconnect());
      },
    );
  }
});
// The runner went away: stop, do not linger with thousands of sockets.
process.on('disconnect', () => setTimeout(() => process.exit(0), 100));

/**
 * Redis away under two instances (DESIGN §16), both reaching it through a cuttable proxy, with
 * real PostgreSQL and Redis behind:
 * - the phones on the owner's own instance keep the game: ticks, a confirmed answer and a
 *   reconnect during the cut, and no frame twice while Redis is up; the other instance's phones
 *   keep their countdown (ticks made there, edge-ticks.ts), the owner's own once it is heard
 *   again, never back in time, and catch up once Redis is back;
 * - a question whose deadline falls in the cut: an answer the other instance took before the
 *   deadline counts, scored by its stamp; the reveal waits for it (relay-hold.ts), and nothing
 *   is accepted after question_end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyMessage } from '../ws/testing/client.js';
import type { TestSocket } from '../ws/testing/client.js';
import { TestApi } from '../../testing/api.js';
import type { CuttableProxy } from '../../testing/cuttable-proxy.js';
import type { TestServer } from '../../testing/server.js';
import { type Game, createGame, player } from '../ws/testing/setup.js';
import { type ProxiedCluster, startProxiedCluster } from './testing/proxied-cluster.js';
import { waitUntil } from './testing/cluster.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ticks = (socket: TestSocket, from = 0) => socket.messages.slice(from).filter((m) => m.type === 'timer_tick');
const isQuestion = (m: AnyMessage) => m.type === 'session_state' && m.phase === 'question';

/** A game of one question on two instances, started, with the owner known: its own instance and the other. */
async function startedGame(servers: TestServer[], text: string, timeLimitSeconds: number) {
  const api = new TestApi(servers[0]);
  await api.login();
  const game: Game = await createGame(servers[0], api, { items: [{ question: { text, correctIndex: 1, points: 1000, timeLimitSeconds } }], players: 3 });
  const first = await player(servers[0], game, 0);
  const ownerIndex = () => servers.findIndex((s) => s.server.realtime.cluster?.owner.epochOf(game.sessionId) !== undefined);
  await waitUntil('an owner', () => ownerIndex() >= 0);
  const owner = servers[ownerIndex()];
  const other = servers[1 - ownerIndex()];
  // Player 0 on the owner's instance, player 1 on the other one.
  const local = owner === servers[0] ? first : (await first.close(), await player(owner, game, 0));
  const remote = await player(other, game, 1);
  expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBe(200);
  const open = await local.waitFor(isQuestion, { timeoutMs: 15_000 });
  await remote.waitFor(isQuestion, { timeoutMs: 15_000 });
  return { game, owner, other, local, remote, endsAt: open.endsAt as number, question: game.questions[0] };
}

type Started = Awaited<ReturnType<typeof startedGame>>;

/** The answer `remote` sent at `sentAt` (its messages from `from` on) is told counted, stored with its time at its instance. */
async function expectCountedByItsStamp(started: Started, from: number, sentAt: number): Promise<void> {
  const { game, owner, local, remote, question, endsAt } = started;
  // Told its result: by `answer_result`, or, when that was published before this instance had
  // subscribed again (pub/sub keeps nothing), by the reveal's fresh state, which carries it.
  const told = await remote.waitFor(
    (m) => m.type === 'answer_result' || (m.type === 'session_state' && m.phase === 'reveal' && m.answerResult != null),
    { from, timeoutMs: 10_000 },
  );
  const result = told.type === 'answer_result' ? told : { ...told.answerResult, questionId: told.question?.id };
  expect(result).toMatchObject({ isCorrect: true, questionId: question.id });
  expect(result.pointsEarned).toBeGreaterThan(0);
  await local.waitFor((m) => m.type === 'question_end', { timeoutMs: 5_000 });
  const row = await owner.server.deps.store.db
    .selectFrom('answers')
    .select(['elapsed_ms'])
    .where('session_id', '=', game.sessionId)
    .where('player_id', '=', game.players[1].id)
    .executeTakeFirstOrThrow();
  // Timed by when it reached its instance, before the deadline.
  expect(row.elapsed_ms).toBeLessThanOrEqual(6_000);
  expect(row.elapsed_ms).toBeGreaterThanOrEqual(sentAt - (endsAt - 6_000) - 100);
}

describe('Redis cut: the owner runs on (2 instances)', () => {
  let cluster: ProxiedCluster;
  let proxy: CuttableProxy;
  let servers: TestServer[];

  beforeAll(async () => {
    cluster = await startProxiedCluster(2);
    ({ proxy, servers } = cluster);
  }, 60_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('keeps ticks, confirmations and reconnects going on the owner’s instance; the other catches up once Redis is back', { timeout: 60_000 }, async () => {
    const { game, owner, other, local, remote, question, endsAt } = await startedGame(servers, 'Through the cut?', 60);
    // Redis up: each tick reaches a phone on the owner's instance once (directly, not again through Redis).
    await local.waitFor((m) => m.type === 'timer_tick', { from: local.messages.length, timeoutMs: 3_000 });
    await sleep(1_200);
    const upTicks = ticks(local).map((m) => m.serverTime);
    expect(new Set(upTicks).size).toBe(upTicks.length);

    await proxy.cut();
    const from = local.messages.length;
    local.send({ type: 'submit_answer', questionId: question.id, selectedIndex: 1, answerId: 'local-1' });
    // Confirmed during the cut: the database is up, and Redis has no part in it here.
    await local.waitFor((m) => m.type === 'answer_accepted', { from, timeoutMs: 3_000 });
    const remoteFrom = remote.messages.length;
    remote.send({ type: 'submit_answer', questionId: question.id, selectedIndex: 1, answerId: 'remote-1' });
    // A phone reconnecting to the owner's instance during the cut gets its state from the running game.
    const third = await player(owner, game, 2);
    expect(third.messages[0]).toMatchObject({ type: 'session_state', phase: 'question', question: { id: question.id } });
    await sleep(2_500);
    const duringCut = ticks(local, from);
    expect(duringCut.length).toBeGreaterThanOrEqual(2);
    expect(ticks(third).length).toBeGreaterThanOrEqual(1);
    // The other instance hears nothing from the owner meanwhile, but its phones' countdown goes on:
    // the owner's ticks, made there, once a second.
    const remoteCut = ticks(remote, remoteFrom);
    expect(remoteCut.length).toBeGreaterThanOrEqual(2);
    for (const tick of remoteCut) {
      expect(tick).toMatchObject({ questionId: question.id, endsAt, timeRemaining: Math.ceil((endsAt - (tick.serverTime as number)) / 1000) });
    }
    const cutTimes = remoteCut.map((m) => m.serverTime as number);
    // Once a second: no gap the bench would count as more than 0.5 s frozen.
    for (let i = 1; i < cutTimes.length; i++) expect(cutTimes[i] - cutTimes[i - 1]).toBeLessThan(1_500);

    const restoreFrom = remote.messages.length;
    await proxy.restore();
    await sleep(1_500);
    expect(ticks(remote, restoreFrom).length).toBeGreaterThanOrEqual(1);
    // Before, during and after the cut: the owner's countdown, each second once, never back
    // (a tick made there stands for its whole second; the owner's says when its timer ran).
    const remaining = ticks(remote).map((m) => m.timeRemaining as number);
    expect(remaining.slice(1).every((r, i) => r < remaining[i])).toBe(true);
    const localBySecond = new Map(ticks(local).map((m) => [m.timeRemaining, m]));
    for (const tick of ticks(remote)) {
      const owners = localBySecond.get(tick.timeRemaining);
      if (!owners) continue; // the newest, made before the owner's phone heard its own
      expect(tick).toMatchObject({ questionId: owners.questionId, endsAt: owners.endsAt });
      expect(Math.abs((tick.serverTime as number) - (owners.serverTime as number))).toBeLessThan(500);
    }
    expect(remaining.filter((r) => localBySecond.has(r)).length).toBeGreaterThanOrEqual(remaining.length - 1);
    // Its answer, held by its instance's Redis queue, is confirmed, or its fresh state shows it taken.
    await remote.waitFor((m) => m.type === 'answer_accepted' || (m.type === 'session_state' && m.answered === true), { from: remoteFrom, timeoutMs: 10_000 });
    // A phone reconnecting to the other instance is back (how fast: npm run bench -- outage).
    await remote.close();
    const back = await player(other, game, 1);
    expect(back.messages[0]).toMatchObject({ type: 'session_state', phase: 'question', answered: true });
    // Still no frame twice on the owner's instance once Redis is back.
    const later = local.messages.length;
    await sleep(1_500);
    const afterTicks = ticks(local, later).map((m) => m.serverTime);
    expect(new Set(afterTicks).size).toBe(afterTicks.length);
    expect(local.messages.slice(later).filter((m) => m.type === 'answer_accepted')).toEqual([]);
    for (const s of [local, third, back]) s.close();
  });

  it('counts an answer the other instance took before a deadline that fell in the cut, scored by its stamp', { timeout: 60_000 }, async () => {
    const started = await startedGame(servers, 'Deadline in the cut?', 6);
    const { local, remote, endsAt, question } = started;
    await sleep(Math.max(0, endsAt - Date.now() - 2_500));
    await proxy.cut();
    const sentAt = Date.now();
    const from = remote.messages.length;
    remote.send({ type: 'submit_answer', questionId: question.id, selectedIndex: 1, answerId: 'held-1' });
    // Past the deadline and the reveal's usual hold: the owner's phone has its countdown to the
    // end, and the reveal waits for what the other instance holds.
    await sleep(endsAt - Date.now() + 2_500);
    expect(local.messages.some((m) => m.type === 'timer_tick' && m.serverTime >= sentAt)).toBe(true);
    expect(local.types()).not.toContain('question_end');
    // The other instance's phone counted down to the deadline, not past it, and no reveal was made up there.
    const remoteCut = ticks(remote, from);
    expect(remoteCut.some((m) => (m.serverTime as number) >= sentAt + 1_000)).toBe(true);
    expect(remoteCut.every((m) => (m.serverTime as number) < endsAt && m.timeRemaining >= 1)).toBe(true);
    expect(remote.types()).not.toContain('question_end');

    await proxy.restore();
    await expectCountedByItsStamp(started, from, sentAt);
    for (const s of [local, remote]) s.close();
  });
});

describe('Redis back on the owner’s instance before the other’s (2 instances, a proxy each)', () => {
  let cluster: ProxiedCluster;

  beforeAll(async () => {
    cluster = await startProxiedCluster(2, { perInstance: true });
  }, 60_000);

  afterAll(async () => {
    await cluster?.close();
  });

  // The instances reconnect each on its own schedule (up to half a second apart), and each one's key
  // lapsed in the cut: the owner, back first, must not take the other for dead and reveal without it.
  it('still waits for, and counts, the answer the other instance took in time', { timeout: 60_000 }, async () => {
    const { servers, proxies } = cluster;
    const started = await startedGame(servers, 'Back unevenly?', 6);
    const { game, owner, other, local, remote, endsAt, question } = started;
    const ownerProxy = proxies[servers.indexOf(owner)];
    const otherProxy = proxies[servers.indexOf(other)];
    await sleep(Math.max(0, endsAt - Date.now() - 2_500));
    await Promise.all([ownerProxy.cut(), otherProxy.cut()]);
    const sentAt = Date.now();
    const from = remote.messages.length;
    remote.send({ type: 'submit_answer', questionId: question.id, selectedIndex: 1, answerId: 'uneven-1' });
    await sleep(endsAt - Date.now() + 2_500);
    expect(local.types()).not.toContain('question_end');

    await ownerProxy.restore();
    // The owner holds its lease again (it beat after Redis came back), and scans on meanwhile.
    await waitUntil('the owner publishes again', () => owner.server.realtime.cluster?.owner.mayPublish(game.sessionId) !== undefined);
    await sleep(800);
    // The other instance is still away: its key lapsed, but it is not dead, and the reveal still waits.
    expect(local.types()).not.toContain('question_end');
    await otherProxy.restore();
    await expectCountedByItsStamp(started, from, sentAt);
    for (const s of [local, remote]) s.close();
  });
});

/**
 * Group commit: a confirmation leaves only after its answer's transaction resolves, answers close
 * together share a transaction, and a database that refuses writes holds confirmations back.
 */
import { describe, expect, it, vi } from 'vitest';
import { GroupCommit } from './group-commit.js';
import { SharedCommits } from './shared-commits.js';
import type { AnswerWrite, CommitBatch } from './storage.js';

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

function answer(playerId: string): AnswerWrite {
  return {
    sessionId: 's1',
    playerId,
    asking: 1,
    answer: { questionId: 'q1', selectedIndex: 0, isCorrect: true, pointsEarned: 50, elapsedMs: 1_000, answeredAtMs: 1_000 },
  };
}

/** A storage whose commits wait until the test lets them through (or fail). */
function gatedStorage() {
  const batches: CommitBatch[] = [];
  const gates: { resolve: () => void; reject: (err: Error) => void }[] = [];
  const commit = (batch: CommitBatch) =>
    new Promise<void>((resolve, reject) => {
      batches.push(batch);
      gates.push({ resolve, reject });
    });
  return { batches, gates, commit };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(done()).toBe(true);
}

describe('group commit', () => {
  it('confirms only after the commit, and answers arriving meanwhile share the next transaction', async () => {
    const storage = gatedStorage();
    const writes = new GroupCommit({ sessionId: 's1', commit: storage.commit, windowMs: 2, refreshSnapshot: () => undefined, log: silentLog });
    const confirmed: string[] = [];
    for (const p of ['ann', 'bob', 'cid']) writes.addAnswer(answer(p), () => confirmed.push(p));
    await until(() => storage.batches.length === 1);
    expect(storage.batches[0].answers.map((a) => a.playerId)).toEqual(['ann', 'bob', 'cid']);
    // While that transaction runs, more answers gather; nobody is confirmed yet.
    for (const p of ['dan', 'eve']) writes.addAnswer(answer(p), () => confirmed.push(p));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(storage.batches).toHaveLength(1);
    expect(confirmed).toEqual([]);
    storage.gates[0].resolve();
    await until(() => storage.batches.length === 2);
    expect(confirmed).toEqual(['ann', 'bob', 'cid']);
    expect(storage.batches[1].answers.map((a) => a.playerId)).toEqual(['dan', 'eve']);
    storage.gates[1].resolve();
    await until(() => confirmed.length === 5);
  });

  it('commits a full batch at once, without waiting for the end of the event-loop turn', async () => {
    const storage = gatedStorage();
    const writes = new GroupCommit({ sessionId: 's1', commit: storage.commit, windowMs: 0, maxBatchAnswers: 4, refreshSnapshot: () => undefined, log: silentLog });
    for (let i = 0; i < 6; i++) writes.addAnswer(answer(`p${i}`), () => {});
    expect(storage.batches.map((b) => b.answers.length)).toEqual([4]); // already started, in this same turn
    storage.gates[0].resolve();
    await until(() => storage.batches.length === 2);
    expect(storage.batches[1].answers.map((a) => a.playerId)).toEqual(['p4', 'p5']);
    storage.gates[1].resolve();
    await writes.flush();
  });

  it('under a burst, answers arriving soon after a commit gather until the gap has passed, then share one commit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // setImmediate stays real: the end of a turn
    try {
      const batches: CommitBatch[] = [];
      let nowMs = 1_000;
      const writes = new GroupCommit({
        sessionId: 's1',
        commit: async (batch) => void batches.push(batch),
        windowMs: 0,
        minGapMs: 10,
        now: () => nowMs,
        refreshSnapshot: () => undefined,
        log: silentLog,
      });
      const confirmed: string[] = [];
      const turns = async (n: number) => {
        for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
      };
      writes.addAnswer(answer('ann'), () => confirmed.push('ann')); // after a quiet moment: at the end of this turn
      await turns(3);
      expect(confirmed).toEqual(['ann']);
      nowMs += 3;
      for (const p of ['bob', 'cid', 'dan']) writes.addAnswer(answer(p), () => confirmed.push(p));
      await turns(5);
      expect(batches).toHaveLength(1); // 3 ms after the last commit: still gathering
      nowMs += 7;
      await vi.advanceTimersByTimeAsync(7);
      expect(batches.map((b) => b.answers.map((a) => a.playerId))).toEqual([['ann'], ['bob', 'cid', 'dan']]);
      expect(confirmed).toEqual(['ann', 'bob', 'cid', 'dan']);
      // A step (a question closing) never waits for the gap.
      nowMs += 1;
      await writes.commitNow({ scores: [{ playerId: 'ann', pointsTotal: 50, reachedAtMs: 1_000 }] });
      expect(batches).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("puts a step's scores and snapshot in the same transaction as the answers gathered, confirming them first", async () => {
    const storage = gatedStorage();
    const writes = new GroupCommit({ sessionId: 's1', commit: storage.commit, windowMs: 1_000, refreshSnapshot: () => undefined, log: silentLog });
    const order: string[] = [];
    writes.addAnswer(answer('ann'), () => order.push('accepted ann'));
    const step = writes
      .commitNow({ scores: [{ playerId: 'ann', pointsTotal: 50, reachedAtMs: 1_000 }], snapshot: { live: null, currentQuestionIndex: 0 } })
      .then(() => order.push('step committed'));
    await until(() => storage.batches.length === 1);
    expect(storage.batches[0]).toMatchObject({ answers: [answer('ann')], scores: [{ playerId: 'ann', pointsTotal: 50 }], snapshot: { live: null } });
    storage.gates[0].resolve();
    await step;
    expect(order).toEqual(['accepted ann', 'step committed']);
  });

  it('holds confirmations while the database fails and sends them once a retry commits', async () => {
    const storage = gatedStorage();
    const writes = new GroupCommit({ sessionId: 's1', commit: storage.commit, windowMs: 0, refreshSnapshot: () => undefined, log: silentLog });
    const confirmed: string[] = [];
    writes.addAnswer(answer('ann'), () => confirmed.push('ann'));
    await until(() => storage.gates.length === 1);
    storage.gates[0].reject(new Error('database down'));
    await until(() => storage.gates.length === 2); // retried, same answer
    expect(confirmed).toEqual([]);
    expect(storage.batches[1].answers.map((a) => a.playerId)).toEqual(['ann']);
    storage.gates[1].resolve();
    await until(() => confirmed.length === 1);
  });

  it('never confirms an answer it gave up on while closing', async () => {
    let attempts = 0;
    const writes = new GroupCommit({
      sessionId: 's1',
      commit: async () => {
        attempts++;
        throw new Error('database down');
      },
      windowMs: 1_000,
      refreshSnapshot: () => undefined,
      log: silentLog,
    });
    const confirmed: string[] = [];
    writes.addAnswer(answer('ann'), () => confirmed.push('ann'));
    expect(await writes.close()).toBe(false);
    expect(attempts).toBe(3);
    expect(confirmed).toEqual([]);
  });

  it('writes the refreshed snapshot with the next batch, or on its own after the delay', async () => {
    const storage = gatedStorage();
    let roster = ['ann'];
    const writes = new GroupCommit({
      sessionId: 's1',
      commit: storage.commit,
      windowMs: 0,
      refreshSnapshot: () => ({ live: null, currentQuestionIndex: roster.length }),
      log: silentLog,
    });
    writes.refreshSoon(0);
    await until(() => storage.batches.length === 1);
    expect(storage.batches[0]).toMatchObject({ answers: [], snapshot: { currentQuestionIndex: 1 } });
    storage.gates[0].resolve();
    roster = ['ann', 'bob'];
    writes.refreshSoon(60_000);
    writes.addAnswer(answer('bob'), () => {});
    await until(() => storage.batches.length === 2);
    expect(storage.batches[1]).toMatchObject({ answers: [answer('bob')], snapshot: { currentQuestionIndex: 2 } });
    storage.gates[1].resolve();
    await writes.flush();
  });

  it('hands its batches over without a promise when it can, and retries a refused one through commit', async () => {
    const handed: { batch: CommitBatch; done: (failed: boolean, err?: unknown) => void }[] = [];
    const storage = gatedStorage();
    const writes = new GroupCommit({
      sessionId: 's1',
      commit: storage.commit,
      shared: { hand: (batch, done) => handed.push({ batch, done }), waitFor: () => {}, unwait: () => {}, list: () => {}, lists: false, generation: 0 },
      windowMs: 0,
      refreshSnapshot: () => undefined,
      log: silentLog,
    });
    const confirmed: string[] = [];
    writes.addAnswer(answer('ann'), () => confirmed.push('ann'));
    await until(() => handed.length === 1);
    writes.addAnswer(answer('bob'), () => confirmed.push('bob')); // gathers while ann's batch is out
    handed[0].done(false);
    expect(confirmed).toEqual(['ann']); // at once, in the call that reported the commit
    // Bob's batch goes next, in the same call; refused, it is retried through `commit`.
    expect(handed.map((h) => h.batch.answers.map((a) => a.playerId))).toEqual([['ann'], ['bob']]);
    handed[1].done(true, new Error('database down'));
    await until(() => storage.gates.length === 1);
    expect(storage.batches[0].answers.map((a) => a.playerId)).toEqual(['bob']);
    expect(confirmed).toEqual(['ann']);
    storage.gates[0].resolve();
    await until(() => confirmed.length === 2);
    expect(await writes.flush()).toBe(true);
    expect(handed).toHaveLength(2); // nothing left to hand over
  });

  it('logs a confirmation that throws; the other confirmations and the batches after it still go', async () => {
    const storage = gatedStorage();
    const errors: string[] = [];
    const writes = new GroupCommit({ sessionId: 's1', commit: storage.commit, windowMs: 0, refreshSnapshot: () => undefined, log: { ...silentLog, error: (_d, message) => errors.push(message) } });
    const confirmed: string[] = [];
    writes.addAnswer(answer('ann'), () => {
      throw new Error('a bug in a confirmation');
    });
    writes.addAnswer(answer('cid'), () => confirmed.push('cid')); // the same batch, after the one that throws
    await until(() => storage.gates.length === 1);
    writes.addAnswer(answer('bob'), () => confirmed.push('bob'));
    storage.gates[0].resolve();
    await until(() => storage.gates.length === 2);
    expect(errors).toEqual(['confirming a committed answer failed']);
    expect(confirmed).toEqual(['cid']);
    storage.gates[1].resolve();
    await until(() => confirmed.length === 2);
  });

  /** Two rooms on shared commits over `commitMany`; the first one's roster snapshot throws (a bug). */
  function brokenAndFine(commitMany: () => Promise<void>) {
    const shared = new SharedCommits({ commit: async () => {}, commitMany });
    const errors: string[] = [];
    const log = { ...silentLog, error: (_d: object, message: string) => errors.push(message) };
    const broken = new GroupCommit({ sessionId: 's1', commit: async () => {}, shared, windowMs: 0, log, refreshSnapshot: () => {
      throw new Error('a bug while building the roster');
    } });
    const fine = new GroupCommit({ sessionId: 's2', commit: async () => {}, shared, windowMs: 0, log, refreshSnapshot: () => undefined });
    return { broken, fine, errors, confirmed: [] as string[] };
  }

  it("a room whose next batch fails to build does not keep the other rooms of its shared transaction waiting", async () => {
    const { broken, fine, errors, confirmed } = brokenAndFine(async () => {});
    // Newcomers first, so that the answers join the rooms' own batches rather than the instance's list.
    broken.addJoined('ann');
    fine.addJoined('bob');
    broken.addAnswer(answer('ann'), () => confirmed.push('ann'));
    fine.addAnswer({ ...answer('bob'), sessionId: 's2' }, () => confirmed.push('bob'));
    await new Promise((resolve) => setImmediate(resolve)); // both batches handed over, their transaction not run yet
    broken.refreshSoon(60_000); // so its next batch is built as soon as that transaction is done
    await until(() => confirmed.length === 2);
    expect(confirmed).toEqual(['ann', 'bob']);
    expect(errors).toEqual(['taking the next batch failed']);
  });

  it('a room whose batch after its listed answers fails to build does not keep the other rooms waiting', async () => {
    let release = () => {};
    const { broken, fine, errors, confirmed } = brokenAndFine(() => new Promise<void>((resolve) => (release = resolve)));
    broken.addAnswer(answer('ann'), () => confirmed.push('ann'));
    fine.addAnswer({ ...answer('bob'), sessionId: 's2' }, () => confirmed.push('bob'));
    expect([broken.pendingAnswers, fine.pendingAnswers]).toEqual([1, 1]); // both on the list
    await new Promise((resolve) => setImmediate(resolve)); // the list's transaction is in flight
    broken.refreshSoon(0); // waits for ann's answer, then is built
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([]);
    release();
    await until(() => confirmed.length === 2);
    expect(confirmed).toEqual(['ann', 'bob']);
    expect(errors).toEqual(['taking the next batch failed']);
  });

  describe("the instance's list of answers", () => {
    /** Rooms on one instance's shared commits over a storage whose transactions the test lets through or fails. */
    function instance(options: { fullBatches?: number } = {}) {
      const transactions: { listed: string[]; batches: CommitBatch[]; resolve: () => void; reject: (err: Error) => void }[] = [];
      const transaction = (batches: CommitBatch[], listed: AnswerWrite[] = []) =>
        new Promise<void>((resolve, reject) => transactions.push({ listed: listed.map((a) => a.playerId), batches, resolve, reject }));
      const shared = new SharedCommits({ commit: (batch) => transaction([batch]), commitMany: transaction }, { minGapMs: 0, ...options });
      const confirmed: string[] = [];
      const room = (sessionId: string) => {
        const writes = new GroupCommit({ sessionId, commit: (batch) => shared.commit(batch), shared, windowMs: 0, refreshSnapshot: () => undefined, log: silentLog });
        const answerFrom = (playerId: string) => writes.addAnswer({ ...answer(playerId), sessionId }, () => confirmed.push(playerId));
        return { writes, answerFrom };
      };
      const answersOf = (batch: CommitBatch) => batch.answers.map((a) => a.playerId);
      return { shared, transactions, confirmed, room, answersOf };
    }
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const score = (playerId: string) => ({ playerId, pointsTotal: 50, reachedAtMs: 1_000 });

    it('writes them ahead of the rooms\' batches in one transaction, and confirms them before a step of it is done', async () => {
      const { transactions, confirmed, room, answersOf } = instance();
      const s1 = room('s1');
      const s2 = room('s2');
      s1.answerFrom('ann');
      s2.answerFrom('bob');
      s1.answerFrom('cid'); // s1's listed answer has not gone out: the list again
      expect([s1.writes.pendingAnswers, s2.writes.pendingAnswers]).toEqual([2, 1]);
      const order: string[] = [];
      const step = s2.writes.commitNow({ scores: [score('bob')] }).then((stored) => order.push(`step ${stored}`));
      await until(() => transactions.length === 1);
      expect(transactions[0].listed).toEqual(['ann', 'bob', 'cid']);
      expect(transactions[0].batches.map((b) => [b.sessionId, answersOf(b), b.scores.length])).toEqual([['s2', [], 1]]);
      await turns(3);
      expect(confirmed).toEqual([]); // nothing before the commit
      transactions[0].resolve();
      await step;
      expect([...confirmed, ...order]).toEqual(['ann', 'bob', 'cid', 'step true']);
      expect([s1.writes.pendingAnswers, s2.writes.pendingAnswers]).toEqual([0, 0]);
      expect(transactions).toHaveLength(1);
    });

    it("holds a room's later writes, and its flush, until its listed answers are committed", async () => {
      const { transactions, confirmed, room, answersOf } = instance();
      const s1 = room('s1');
      s1.answerFrom('ann');
      await until(() => transactions.length === 1); // ann's transaction is in flight
      s1.answerFrom('bob');
      let flushed = false;
      const flush = s1.writes.commitNow({ snapshot: { live: null, currentQuestionIndex: 3 } }).then(() => (flushed = true));
      await turns(5);
      expect(transactions).toHaveLength(1);
      expect(flushed).toBe(false);
      transactions[0].resolve();
      await until(() => transactions.length === 2);
      expect(confirmed).toEqual(['ann']);
      expect(transactions[1].listed).toEqual([]);
      expect(transactions[1].batches.map((b) => [answersOf(b), b.snapshot?.currentQuestionIndex])).toEqual([[['bob'], 3]]);
      expect(flushed).toBe(false);
      transactions[1].resolve();
      await flush;
      expect(confirmed).toEqual(['ann', 'bob']);
    });

    it('a flush with nothing gathered waits for the listed answers', async () => {
      const { transactions, confirmed, room } = instance();
      const s1 = room('s1');
      s1.answerFrom('ann');
      let flushed: boolean | undefined;
      const flush = s1.writes.flush().then((stored) => (flushed = stored));
      await until(() => transactions.length === 1);
      await turns(3);
      expect(flushed).toBeUndefined();
      transactions[0].resolve();
      await flush;
      expect([confirmed, flushed]).toEqual([['ann'], true]);
    });

    it('when their transaction fails, each room commits its listed answers before anything it handed over since', async () => {
      const { transactions, confirmed, room, answersOf } = instance();
      const s1 = room('s1');
      const s2 = room('s2');
      s1.answerFrom('ann');
      const order: string[] = [];
      const step = s1.writes.commitNow({ scores: [score('ann')] }).then((stored) => order.push(`step ${stored}`));
      s2.answerFrom('bob');
      await until(() => transactions.length === 1);
      s2.answerFrom('dan'); // after bob, whose transaction is in flight
      await turns(2);
      transactions[0].reject(new Error('a row refused'));
      // s1's answer goes in front of its step's batch, written alone; s2's becomes a batch of its own.
      await until(() => transactions.length === 2);
      expect(transactions[1].listed).toEqual([]);
      expect(transactions[1].batches.map((b) => [b.sessionId, answersOf(b), b.scores.length])).toEqual([['s1', ['ann'], 1]]);
      transactions[1].resolve();
      await step;
      expect([...confirmed, ...order]).toEqual(['ann', 'step true']);
      await until(() => transactions.length === 3);
      expect(transactions[2].batches.map((b) => [b.sessionId, answersOf(b)])).toEqual([['s2', ['bob']]]);
      await turns(3);
      expect(transactions).toHaveLength(3); // dan waits for bob
      expect(confirmed).toEqual(['ann']);
      transactions[2].resolve();
      await until(() => transactions.length === 4);
      expect(confirmed).toEqual(['ann', 'bob']);
      expect(transactions[3].batches.map((b) => [b.sessionId, answersOf(b)])).toEqual([['s2', ['dan']]]);
      transactions[3].resolve();
      await until(() => confirmed.length === 3);
      expect(await s2.writes.flush()).toBe(true);
    });

    it('counts the rooms on the list, not their answers, toward a full transaction', async () => {
      const { shared, transactions, confirmed, room } = instance({ fullBatches: 3 });
      const s1 = room('s1');
      for (const p of ['ann', 'bob', 'cid']) s1.answerFrom(p);
      shared.poke(); // the same synchronous stretch: no immediate has run
      expect(transactions).toHaveLength(0); // one session's answers, however many
      room('s2').answerFrom('dan');
      room('s3').answerFrom('eve');
      shared.poke();
      expect(transactions.map((t) => t.listed)).toEqual([['ann', 'bob', 'cid', 'dan', 'eve']]);
      transactions[0].resolve();
      await until(() => confirmed.length === 5);
    });

    it('is not used when every write must check its session\'s owner', () => {
      const storage = { commit: async () => {}, commitMany: async () => {} };
      expect(new SharedCommits(storage).lists).toBe(true);
      expect(new SharedCommits({ ...storage, fenced: true }).lists).toBe(false);
      expect(new SharedCommits({ commit: async () => {} }).lists).toBe(false);
    });
  });

  describe('poked by any room event while one turn of the event loop lasts', () => {
    /** Rooms on one instance's shared commits, with a clock the test moves and transactions it lets through. */
    function instance(options: { overdueMs?: number; fullBatches?: number } = {}) {
      let nowMs = 0;
      const transactions: { sessions: string[]; resolve: () => void }[] = [];
      // The sessions of a transaction: those of its listed answers, then its batches'.
      const transaction = (batches: CommitBatch[], listed: AnswerWrite[] = []) =>
        new Promise<void>((resolve) => transactions.push({ sessions: [...listed.map((a) => a.sessionId), ...batches.map((b) => b.sessionId)], resolve }));
      // One batch alone goes through `commit`, several through `commitMany`.
      const storage = { commit: (batch: CommitBatch) => transaction([batch]), commitMany: transaction };
      const shared = new SharedCommits(storage, { minGapMs: 20, overdueMs: 20, ...options, now: () => nowMs });
      const room = (sessionId: string) =>
        new GroupCommit({
          sessionId,
          commit: storage.commit,
          shared,
          windowMs: 0,
          refreshSnapshot: () => undefined,
          log: silentLog,
        });
      // A session's room takes one player's answer; its confirmation is recorded in `confirmed`.
      const confirmed: string[] = [];
      const answerIn = (sessionId: string, playerId: string) => room(sessionId).addAnswer({ ...answer(playerId), sessionId }, () => confirmed.push(playerId));
      return { shared, transactions, confirmed, answerIn, at: (ms: number) => (nowMs = ms) };
    }

    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    it('commits the batches overdue at once, without waiting for the end of the turn', async () => {
      const { shared, transactions, confirmed, answerIn, at } = instance();
      answerIn('s1', 'ann');
      answerIn('s2', 'bob');
      // Still the same synchronous stretch (a long poll phase reading sockets).
      at(5);
      shared.poke();
      expect(transactions).toHaveLength(0);
      at(25);
      shared.poke();
      expect(transactions.map((t) => t.sessions)).toEqual([['s1', 's2']]);
      transactions[0].resolve();
      await nextTurn();
      expect(confirmed).toEqual(['ann', 'bob']);
      // Neither the rooms' own immediates nor the shared one wrote anything again.
      expect(transactions).toHaveLength(1);
    });

    it('commits at once when enough sessions wait, however briefly they have waited', async () => {
      const { shared, transactions, confirmed, answerIn, at } = instance({ overdueMs: 60_000, fullBatches: 3 });
      answerIn('s1', 'ann');
      answerIn('s2', 'bob');
      at(1);
      shared.poke();
      expect(transactions).toHaveLength(0);
      // A third session's answer, in the same synchronous stretch: a full transaction's worth.
      answerIn('s3', 'cem');
      shared.poke();
      expect(transactions.map((t) => t.sessions)).toEqual([['s1', 's2', 's3']]);
      transactions[0].resolve();
      await nextTurn();
      expect(confirmed).toEqual(['ann', 'bob', 'cem']);
      expect(transactions).toHaveLength(1);
      // The gap still holds: a full house right after a transaction started waits it out.
      answerIn('s4', 'dan');
      answerIn('s5', 'eve');
      answerIn('s6', 'fay');
      at(10);
      shared.poke();
      expect(transactions).toHaveLength(1);
      at(21);
      shared.poke();
      expect(transactions.map((t) => t.sessions)).toEqual([['s1', 's2', 's3'], ['s4', 's5', 's6']]);
      transactions[1].resolve();
      await nextTurn();
      expect(confirmed).toEqual(['ann', 'bob', 'cem', 'dan', 'eve', 'fay']);
    });

    it('starts nothing while a transaction is in flight; what waited meanwhile goes with the first poke after it', async () => {
      const { shared, transactions, confirmed, answerIn, at } = instance();
      answerIn('s1', 'ann');
      at(25);
      shared.poke();
      answerIn('s2', 'bob');
      at(60);
      shared.poke(); // bob has waited 35 ms, but ann's transaction is still in flight
      expect(transactions.map((t) => t.sessions)).toEqual([['s1']]);
      transactions[0].resolve();
      await new Promise((resolve) => queueMicrotask(() => resolve(undefined)));
      await Promise.resolve();
      expect(confirmed).toEqual(['ann']);
      shared.poke(); // the same turn still: bob's room's own immediate has not run
      expect(transactions.map((t) => t.sessions)).toEqual([['s1'], ['s2']]);
      transactions[1].resolve();
      await nextTurn();
      expect(confirmed).toEqual(['ann', 'bob']);
      expect(transactions).toHaveLength(2);
    });
  });
});

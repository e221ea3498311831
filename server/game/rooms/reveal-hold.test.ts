/**
 * The room's side of a held reveal (RoomDeps.holdReveal, DESIGN §16): the countdown runs to the
 * deadline as usual, the reveal waits while the deps say so, an answer stamped before the
 * deadline that arrives meanwhile counts by its stamp, and the reveal goes on once released.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../protocol/index.js';
import { makeProgram, makeQuestion } from '../engine/testing/testkit.js';
import type { RoomLog } from './broadcaster.js';
import { FakeClock } from './fake-clock.js';
import { RoomManager } from './manager.js';
import { MemoryRoomStorage } from './memory-storage.js';

const T0 = 1_800_000_000_000;
const SESSION = 'session-1';
const quiet: RoomLog = { error: () => {}, warn: () => {}, info: () => {} };
const managers: RoomManager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function setup() {
  const clock = new FakeClock(T0);
  const storage = new MemoryRoomStorage();
  storage.addSession(makeProgram([makeQuestion('q1', { timeLimitSeconds: 10 })]), { status: 'live' });
  const sent: ServerMessage[] = [];
  const record = (_s: string, _to: string, message: ServerMessage) => void sent.push(message);
  const hold = { on: true, asked: [] as number[] };
  const manager = new RoomManager({
    storage,
    broadcaster: { toSession: record, toPlayer: record, toConnection: record },
    clock,
    log: quiet,
    holdReveal: (_sessionId, endsAtMs) => {
      hold.asked.push(endsAtMs);
      return hold.on;
    },
  });
  clock.settle = () => manager.whenIdle();
  managers.push(manager);
  return { clock, manager, sent, hold, types: () => sent.map((m) => m.type) };
}

describe('a held reveal', () => {
  it('keeps the countdown to the deadline, waits while held, counts an answer stamped in time, then reveals', async () => {
    const { clock, manager, sent, hold, types } = setup();
    await manager.start();
    const room = (await manager.acquire(SESSION))!;
    await room.connect({ connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' }, () => undefined);
    await room.connect({ connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' }, () => undefined);
    await clock.advance(10_000 + 3_000);
    expect(types().filter((t) => t === 'timer_tick')).toHaveLength(9);
    expect(types()).not.toContain('question_end');
    expect(hold.asked.every((endsAt) => endsAt === T0 + 10_000)).toBe(true);
    expect(hold.asked.length).toBeGreaterThan(1);

    // Relayed late, stamped 4 s into the question: it counts, timed by its stamp.
    room.dispatch({ type: 'submit_answer', connectionId: 'b/p2', playerId: 'bob', questionId: 'q1', selectedIndex: 1 }, T0 + 4_000);
    await room.settled();
    expect(types()).toContain('answer_accepted');
    expect(types()).not.toContain('question_end');

    hold.on = false;
    await clock.advance(100);
    expect(types()).toContain('question_end');
    const result = sent.find((m) => m.type === 'answer_result' && m.playerId === 'bob');
    expect(result).toMatchObject({ isCorrect: true, pointsEarned: 80 });
  });
});

describe('measured delays', () => {
  it('a delay reported between steps sizes the reveal hold at the deadline, without a step of its own', async () => {
    const { clock, manager, sent, hold, types } = setup();
    hold.on = false;
    await manager.start();
    const room = (await manager.acquire(SESSION))!;
    await room.connect({ connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' }, () => undefined);
    await room.connect({ connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' }, () => undefined);
    room.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 1 });
    await room.settled();
    // Bob's link is slow: his answer may still be on its way at the deadline. An earlier report is
    // replaced by the latest, and nothing is sent for either.
    const before = sent.length;
    room.dispatch({ type: 'player_delay', playerId: 'bob', allowanceMs: 300 });
    room.dispatch({ type: 'player_delay', playerId: 'bob', allowanceMs: 900 });
    await room.settled();
    expect(sent.length).toBe(before);
    expect(room.engineState!.delays.get('bob')).toBeUndefined();

    await clock.advance(10_000);
    expect(types()).not.toContain('question_end');
    await clock.advance(800);
    expect(types()).not.toContain('question_end');
    await clock.advance(200);
    expect(types()).toContain('question_end');
    expect(room.engineState!.delays.get('bob')).toBe(900);
  });

  it('hands the delays to the engine only with a timer step; an answer’s own measure is newer than one reported before it', async () => {
    const { clock, manager, hold, types } = setup();
    hold.on = false;
    await manager.start();
    const room = (await manager.acquire(SESSION))!;
    for (const [connectionId, playerId, name] of [['p1', 'ann', 'Ann'], ['p2', 'bob', 'Bob'], ['p3', 'cem', 'Cem']]) {
      await room.connect({ connectionId, role: 'player', playerId, name }, () => undefined);
    }
    room.dispatch({ type: 'player_delay', playerId: 'ann', allowanceMs: 1_500 });
    room.dispatch({ type: 'player_delay', playerId: 'bob', allowanceMs: 700 });
    // Ann answers with her link's measure of now; an answer is not a timer step: nothing is applied.
    room.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 1, allowanceMs: 40 });
    await room.settled();
    expect(room.engineState!.delays.get('ann')).toBe(40);
    expect(room.engineState!.delays.get('bob')).toBeUndefined();

    // The next timer step (the tick at 1 s) takes Bob's; Ann's earlier report stays superseded.
    await clock.advance(1_000);
    expect(room.engineState!.delays.get('bob')).toBe(700);
    expect(room.engineState!.delays.get('ann')).toBe(40);
    // Cem never answers, with no measure: the reveal holds for Bob's 700 ms only.
    await clock.advance(9_000 + 600);
    expect(types()).not.toContain('question_end');
    await clock.advance(100);
    expect(types()).toContain('question_end');
  });
});

/**
 * The countdown an instance keeps for its phones while a session's owner is unheard: the owner's
 * ticks as it would send them, once a second, never at or past the deadline, never one the
 * owner's own frames contradict. (Against real Redis and a cut: redis-cut-owner.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EdgeTicks, GRACE_MS } from './edge-ticks.js';
import type { OutboxHeader, QuestionClock } from './envelope.js';

const START = 1_800_000_000_000;
const ENDS = START + 5_000;
/** The owner's clock runs 40 s ahead of this instance's: ticks go by it all the same. */
const OFFSET = 40_000;

const header = (q: QuestionClock | 0): OutboxHeader => ({ e: 1, k: 'all', q });
const tick = (atMs: number): OutboxHeader => header(['q1', atMs + OFFSET, ENDS + OFFSET, 1]);

describe('EdgeTicks', () => {
  let sent: Array<{ sessionId: string; message: Record<string, unknown>; at: number }>;
  let unreachable: boolean;
  let ticks: EdgeTicks;
  let logged: Array<[object, string]>;

  beforeEach(() => {
    vi.useFakeTimers({ now: START });
    sent = [];
    unreachable = false;
    logged = [];
    ticks = new EdgeTicks({
      log: { info: (details, message) => logged.push([details, message]) },
      send: (sessionId, frame) => sent.push({ sessionId, message: JSON.parse(frame.toString()), at: Date.now() }),
      ownerUnreachable: () => unreachable,
    });
  });

  afterEach(() => {
    ticks.close();
    vi.useRealTimers();
  });

  it('sends the owner’s tick itself once the owner is GRACE_MS late, then each on time until the deadline', () => {
    // The question's state gives the clock (its time falls between two seconds).
    ticks.heard('s1', header(['q1', START + OFFSET + 3, ENDS + OFFSET, 0]), false);
    vi.advanceTimersByTime(1_000);
    expect(ticks.heard('s1', tick(START + 1_000), false)).toBe(true);
    vi.advanceTimersByTime(1_000 + GRACE_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(10_000);
    expect(sent.map((s) => s.message)).toEqual([2, 3, 4].map((n) => ({ type: 'timer_tick', questionId: 'q1', timeRemaining: 5 - n, serverTime: START + OFFSET + n * 1_000, endsAt: ENDS + OFFSET })));
    // Unheard, the owner stays so until a frame of it comes: no more waiting for it.
    expect(sent.map((s) => s.at - START)).toEqual([2_500, 3_000, 4_000]);
  });

  it('sends each tick on time while Redis is known down', () => {
    ticks.heard('s1', tick(START), false);
    unreachable = true;
    vi.advanceTimersByTime(2_000);
    expect(sent.map((s) => [s.at - START, s.message.timeRemaining])).toEqual([
      [1_000, 4],
      [2_000, 3],
    ]);
  });

  it('sends a tick waiting for the owner’s at once when this instance loses Redis', () => {
    ticks.heard('s1', tick(START), false);
    vi.advanceTimersByTime(1_100);
    expect(sent).toEqual([]);
    unreachable = true;
    ticks.ownerLost();
    expect(sent.map((s) => [s.at - START, s.message.timeRemaining])).toEqual([[1_100, 4]]);
  });

  it('lets the owner win once heard again: its late ticks are dropped, its new ones go on', () => {
    ticks.heard('s1', tick(START), false);
    unreachable = true;
    vi.advanceTimersByTime(2_100);
    expect(sent).toHaveLength(2);
    unreachable = false;
    // Its offline queue, flushed late: seconds the phones here already have.
    expect(ticks.heard('s1', tick(START + 1_004), false)).toBe(false);
    expect(ticks.heard('s1', tick(START + 2_001), false)).toBe(false);
    // Heard on time again: nothing made up here any more.
    vi.advanceTimersByTime(900);
    expect(ticks.heard('s1', tick(START + 3_003), false)).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(ticks.heard('s1', tick(START + 4_001), false)).toBe(true);
    vi.advanceTimersByTime(5_000);
    expect(sent).toHaveLength(2);
    // The operator reads when this instance took over the countdown and when the owner was back.
    expect(logged).toEqual([
      [{ sessionId: 's1', questionId: 'q1' }, "cluster: the game's owner is unheard; its countdown goes on from here"],
      [{ sessionId: 's1', questionId: 'q1', ticksMade: 2 }, "cluster: the game's owner is heard again"],
    ]);
  });

  it('makes nothing up when the owner runs here, nor after the question closed, nor for a forgotten session', () => {
    ticks.heard('local', tick(START), true);
    ticks.heard('closed', tick(START), false);
    ticks.heard('closed', header(0), false);
    ticks.heard('gone', tick(START), false);
    ticks.forget('gone');
    unreachable = true;
    vi.advanceTimersByTime(10_000);
    expect(sent).toEqual([]);
  });

  it('after a stalled wake sends the current second, not a burst of old ones', () => {
    ticks.heard('s1', tick(START), false);
    unreachable = true;
    // The clock jumps 2.2 s while the timer was due in 1 s (a blocked event loop).
    vi.setSystemTime(START + 2_200);
    vi.advanceTimersByTime(10_000);
    expect(sent.map((s) => [s.at - START, s.message.timeRemaining])).toEqual([
      [3_200, 2],
      [4_000, 1],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_ALLOWANCE_MS } from '../../game/engine/credit.js';
import { LinkDelay } from './link-delay.js';

describe('what the server measures of a phone’s link', () => {
  it('credits the question’s round trip plus the worst recent one, and reports it when it moves', () => {
    const link = new LinkDelay();
    expect(link.onPong(link.probe(1_000), 1_300)).toBe(300); // a probe: 300 ms round trip
    const payload = link.questionPing(2_000, 'q1');
    expect(link.onPong(payload, 2_700)).toBe(1_400); // the question took long to arrive: 700 + worst 700
    expect(link.allowanceMs(5_000, 4_990)).toBe(1_400);
    expect(link.onPong(link.probe(6_000), 6_310)).toBeNull(); // no change worth telling
  });

  it('ignores pongs that are not its own (the heartbeat’s, empty) and pongs from the future', () => {
    const link = new LinkDelay();
    expect(link.onPong(Buffer.alloc(0), 1_000)).toBeNull();
    expect(link.onPong('x123', 1_000)).toBeNull();
    expect(link.onPong('p5000', 1_000)).toBeNull();
    expect(link.allowanceMs(1_000, 1_000)).toBe(0);
  });

  it('adds the silence it observed while a ping of its own was overdue', () => {
    const link = new LinkDelay();
    link.onPong(link.probe(0), 200);
    link.onPong(link.questionPing(1_000, 'q1'), 1_200);
    link.probe(2_000); // the signal goes: no pong
    // Last heard at 2_100; the answer comes in at 6_500 with the probe 4.5 s overdue.
    expect(link.allowanceMs(6_500, 2_100)).toBe(200 + 200 + 4_400);
    // A probe merely in flight (not yet overdue) is no stall.
    const fresh = new LinkDelay();
    fresh.onPong(fresh.probe(0), 200);
    fresh.probe(1_000);
    expect(fresh.allowanceMs(1_100, 900)).toBe(200);
  });

  it('credits a cut-off to the question open at the reconnect only, and never more than 5 s in all', () => {
    const link = new LinkDelay();
    link.cutOff(10_000, 6_000);
    link.questionPing(10_000, 'q1'); // the state sent on joining, same question
    expect(link.allowanceMs(10_300, 10_300)).toBe(300 + 4_000);
    link.onPong(link.questionPing(20_000, 'q2'), 20_100); // the next question
    expect(link.allowanceMs(21_000, 21_000)).toBe(200);
    const far = new LinkDelay();
    far.cutOff(60_000, 0);
    expect(far.allowanceMs(60_000, 60_000)).toBe(MAX_ALLOWANCE_MS);
  });
});

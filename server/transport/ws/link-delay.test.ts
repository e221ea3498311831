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

describe('stalls the server saw end, and what a new socket carries over', () => {
  it('remembers a stall that ended for the rest of the question, and forgets it at the next', () => {
    const link = new LinkDelay();
    link.onPong(link.probe(0), 200);
    link.onPong(link.questionPing(1_000, 'q1'), 1_200);
    link.probe(2_000); // the signal goes
    link.heard(6_100, 2_100); // the socket speaks again (a message), the probe 4.1 s overdue: a 4 s stall
    // The answer comes 900 ms later with the probe still out: the stall, not the last 900 ms, counts.
    expect(link.allowanceMs(7_000, 6_100)).toBe(200 + 200 + 4_000);
    link.onPong('p2000', 7_050); // a 5 s round trip: the worst recent one now
    link.onPong(link.questionPing(20_000, 'q2'), 20_100);
    expect(link.allowanceMs(21_000, 21_000)).toBe(MAX_ALLOWANCE_MS); // 100 + 5 050, capped
    const next = new LinkDelay();
    next.onPong(next.questionPing(0, 'q1'), 200);
    next.probe(1_000);
    next.heard(5_000, 1_000);
    next.onPong(next.questionPing(10_000, 'q2'), 10_200); // the stall was in q1: q2 does not get it
    expect(next.allowanceMs(11_000, 11_000)).toBe(200 + 200);
    const quiet = new LinkDelay();
    quiet.heard(5_000, 1_000); // four silent seconds with no ping of ours out: no stall
    expect(quiet.allowanceMs(5_000, 5_000)).toBe(0);
  });

  it('gives a new socket the old one’s stall and question round trip when they are longer than the gap', () => {
    const old = new LinkDelay();
    old.onPong(old.questionPing(0, 'q1'), 900); // the question took 900 ms to go down and back
    old.probe(1_000);
    old.heard(5_500, 1_000); // spoke again after 4.5 s: the pick was not in it
    const fresh = new LinkDelay();
    fresh.cutOff(6_000, 5_500, old); // its gap to the old socket's last word is only 500 ms
    fresh.questionPing(6_000, 'q1');
    expect(fresh.allowanceMs(6_000, 6_000)).toBe(MAX_ALLOWANCE_MS); // 900 + 4 500, capped
  });

  it('reports a stalled socket’s growing allowance for the reveal’s hold, once per 50 ms of change', () => {
    const link = new LinkDelay();
    const reported: number[] = [];
    link.onReport = (ms) => reported.push(ms);
    link.onPong(link.probe(0), 300);
    link.checkStall(500, 300); // nothing out: not stalled
    link.probe(2_000);
    link.checkStall(2_200, 300); // the probe is out, not overdue yet
    link.checkStall(2_500, 300); // overdue: 300 + 2 200 of silence
    link.checkStall(2_520, 300); // moved less than 50 ms
    link.checkStall(3_000, 300);
    expect(reported).toEqual([2_500, 3_000]);
  });
});

/**
 * How `npm run bench -- networks` classes a phone at a question's close (standingAtClose): the
 * categories its lost taps are counted in (docs/PERFORMANCE.md, "Phones on bad networks").
 */
import { describe, expect, it } from 'vitest';
import { PROFILES } from './shaper.js';
import { standingAtClose } from './networks.js';

const basement = PROFILES.find((p) => p.name === 'basement')!;
const CLOSE = 100_000;
const backBefore = (ms: number) => standingAtClose(basement, { cutOffNow: ms < 0, cutOffEndsAtMs: CLOSE - ms }, CLOSE);

describe('where a basement phone stood when the question closed', () => {
  it('still cut off: every category', () => {
    expect(backBefore(-300)).toEqual({ cutOff: true, unreachable: true, noHandshake: true });
  });

  it('back less than a one-way delay and its jitter before: nothing it sent could arrive', () => {
    expect(backBefore(basement.oneWayMs + basement.jitterMs - 1)).toEqual({ cutOff: false, unreachable: true, noHandshake: true });
  });

  it('back less than three one-way delays before: a packet could arrive, a new connection could not', () => {
    expect(backBefore(basement.oneWayMs + basement.jitterMs)).toEqual({ cutOff: false, unreachable: false, noHandshake: true });
    expect(backBefore(3 * basement.oneWayMs - 1)).toEqual({ cutOff: false, unreachable: false, noHandshake: true });
  });

  it('back in time for a handshake, or never cut off: none', () => {
    expect(backBefore(3 * basement.oneWayMs)).toEqual({ cutOff: false, unreachable: false, noHandshake: false });
    expect(standingAtClose(basement, { cutOffNow: false, cutOffEndsAtMs: 0 }, CLOSE)).toEqual({ cutOff: false, unreachable: false, noHandshake: false });
  });
});

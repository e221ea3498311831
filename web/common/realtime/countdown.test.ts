import { describe, expect, it } from 'vitest';
import { Countdown } from './countdown';
import { ServerClock } from './serverClock';

describe('the countdown', () => {
  it('follows the server clock and never moves back up when the clock estimate shifts', () => {
    let local = 0;
    const clock = new ServerClock(() => local);
    const countdown = new Countdown();
    const endsAt = 50_000;
    clock.observe(40_000); // a fresh sample: 10 s left
    expect(countdown.seconds(endsAt, clock.now())).toBe(10);
    local = 1_500;
    expect(countdown.seconds(endsAt, clock.now())).toBe(9);
    // The best samples age out of the window and the estimate drops by 2 s: the time left must not grow.
    const shifted = new ServerClock(() => local);
    shifted.observe(39_500 - 2_000 + 0);
    expect(countdown.seconds(endsAt, shifted.now())).toBe(9);
    local = 6_000;
    expect(countdown.seconds(endsAt, clock.now())).toBe(4);
  });

  it('shows a question that reaches the phone late with the time really left, and restarts for the next deadline', () => {
    const countdown = new Countdown();
    // A 10 s question broadcast at 100_000 arrives 7 s late: 3 s left, not 10.
    expect(countdown.seconds(110_000, 107_000)).toBe(3);
    expect(countdown.seconds(110_000, 111_000)).toBe(0);
    expect(countdown.seconds(130_000, 120_000)).toBe(10);
  });
});

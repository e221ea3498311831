/**
 * When the reveal waits for answers held up between instances by a Redis outage (relay-hold.ts):
 * only for an outage around the deadline, only for instances not caught up, and never for long.
 */
import { describe, expect, it } from 'vitest';
import { MAX_RELAY_HOLD_MS, REJOIN_WAIT_MS, RedisOutage, RelayWatch, revealWaits } from './relay-hold.js';

const END = 100_000;

function setUp(down?: number, back?: number) {
  const outage = new RedisOutage();
  if (down !== undefined) outage.down(down);
  if (back !== undefined) outage.back(back);
  return { outage, watch: new RelayWatch() };
}

describe('the reveal after a Redis outage', () => {
  it('never waits when Redis stayed up, or came back long before the deadline', () => {
    expect(revealWaits(setUp().outage, new RelayWatch(), ['b'], END, END)).toBe(false);
    const { outage, watch } = setUp(END - 20_000, END - 10_000);
    expect(revealWaits(outage, watch, ['b'], END, END)).toBe(false);
  });

  it('waits while Redis is down since before the deadline, at most MAX_RELAY_HOLD_MS', () => {
    const { outage, watch } = setUp(END - 2_000);
    watch.seen('b', END - 2_100);
    expect(revealWaits(outage, watch, ['b'], END, END + 1)).toBe(true);
    expect(revealWaits(outage, watch, ['b'], END, END + MAX_RELAY_HOLD_MS - 1)).toBe(true);
    expect(revealWaits(outage, watch, ['b'], END, END + MAX_RELAY_HOLD_MS)).toBe(false);
  });

  it('does not wait for an outage that began after the deadline (everything before it was relayed)', () => {
    const { outage, watch } = setUp(END + 500);
    expect(revealWaits(outage, watch, ['b'], END, END + 600)).toBe(false);
  });

  it('once Redis is back, waits until each other instance sent something stamped after the deadline, or REJOIN_WAIT_MS', () => {
    const { outage, watch } = setUp(END - 2_000, END + 3_000);
    watch.seen('b', END - 1_500); // its answer, stamped in time, read after Redis came back
    expect(revealWaits(outage, watch, ['b', 'c'], END, END + 3_100)).toBe(true);
    watch.seen('b', END + 3_200); // its sockets announced again: all it held is in
    expect(revealWaits(outage, watch, ['b', 'c'], END, END + 3_300)).toBe(true); // c has not caught up yet
    watch.seen('c', END + 3_400);
    expect(revealWaits(outage, watch, ['b', 'c'], END, END + 3_500)).toBe(false);
    // An instance that never shows up (it died meanwhile) holds the reveal REJOIN_WAIT_MS at most.
    expect(revealWaits(outage, watch, ['d'], END, END + 3_000 + REJOIN_WAIT_MS - 1)).toBe(true);
    expect(revealWaits(outage, watch, ['d'], END, END + 3_000 + REJOIN_WAIT_MS)).toBe(false);
  });

  it('with Redis back just before the deadline, an instance counts as caught up from its first entry after the return', () => {
    const { outage, watch } = setUp(END - 5_000, END - 500);
    expect(revealWaits(outage, watch, ['b'], END, END + 10)).toBe(true);
    watch.seen('b', END - 300);
    expect(revealWaits(outage, watch, ['b'], END, END + 20)).toBe(false);
  });
});

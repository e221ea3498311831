import { describe, expect, it } from 'vitest';
import { MemoryRoomStorage } from '../../game/rooms/index.js';
import { REHEARSAL_VALID_MS, RETRY_AFTER_FAILURE_MS, rehearsals } from './rehearsals.js';

const log = { error: () => {}, warn: () => {}, info: () => {} };

describe('when the warm-up rehearsal runs', () => {
  it('once for many sessions going live together or soon after, again after a long quiet spell', async () => {
    let nowMs = 1_000_000;
    let played = 0;
    let finish = () => {};
    const rehearse = () => {
      played++;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    const runs = rehearsals(50, new MemoryRoomStorage(), log, rehearse, () => nowMs);
    // A thousand starts while the first rehearsal runs share it.
    const starts = Array.from({ length: 1000 }, (_, i) => runs.run(`session-${i}`));
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    await Promise.all(starts);
    expect(played).toBe(1);
    // Starts within the validity window do not rehearse again.
    nowMs += REHEARSAL_VALID_MS - 1;
    await runs.run('later');
    expect(played).toBe(1);
    // After it, the next start rehearses.
    nowMs += 2;
    const again = runs.run('much-later');
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    await again;
    expect(played).toBe(2);
  });

  it('after a failed rehearsal, starts try again a minute later, not at once', async () => {
    let nowMs = 1_000_000;
    let played = 0;
    const warnings: string[] = [];
    const runs = rehearsals(
      50,
      new MemoryRoomStorage(),
      { ...log, warn: (_details: object, message?: string) => warnings.push(message ?? '') },
      async () => {
        played++;
        throw new Error('no loopback');
      },
      () => nowMs,
    );
    await runs.run('a');
    expect(warnings).toEqual(['the warm-up rehearsal failed']);
    // A failure that repeats must not cost every start a rehearsal (a chain starts hundreds).
    nowMs += RETRY_AFTER_FAILURE_MS - 1;
    await runs.run('b');
    expect(played).toBe(1);
    nowMs += 2;
    await runs.run('c');
    expect(played).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { rehearse } from './rehearsal.js';

describe('the warm-up rehearsal', () => {
  it('plays a whole question to its players and leaves nothing running', async () => {
    const errors: unknown[] = [];
    const log = { error: (details: object) => errors.push(details), warn: (details: object) => errors.push(details), info: () => {} };
    const counts = await rehearse(log, 40);
    expect(errors).toEqual([]);
    expect(counts.get('answer_accepted')).toBe(40);
    // Every player answered, so the question ended early and each got a result.
    expect(counts.get('answer_result')).toBe(40);
    expect(counts.get('question_end')).toBe(1);
    expect(counts.get('leaderboard_update')).toBe(1);
  });
});

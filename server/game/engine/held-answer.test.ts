/**
 * An answer that reached the server before the game's clock it is applied at (held on its way to
 * the owner by a Redis outage, DESIGN §16) is timed and judged by that arrival.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../protocol/index.js';
import { FakeRunner, T0, makeProgram, makeQuestion } from './testing/testkit.js';

function startQuiz() {
  const game = new FakeRunner(makeProgram([makeQuestion('q1')]));
  game.connect('ann', 'Ann');
  game.connect('bob', 'Bob');
  game.dispatch({ type: 'start' });
  return game;
}

const held = (playerId: string, arrivedAtMs: number) =>
  ({ type: 'submit_answer', connectionId: `conn-${playerId}`, playerId, questionId: 'q1', selectedIndex: 1, arrivedAtMs }) as const;

describe('an answer held on its way', () => {
  it('is scored by its arrival, not by when it is applied', () => {
    const game = startQuiz();
    game.advance(12_000);
    // 100 points over 20 s: arrival 2 s in earns 95, where 12 s in would earn 70.
    const effects = game.dispatch(held('ann', T0 + 2_000));
    const save = effects.find((e) => e.kind === 'saveAnswer');
    expect(save).toMatchObject({ answer: { elapsedMs: 2_000, pointsEarned: 95, answeredAtMs: T0 + 2_000 } });
  });

  it('is never timed before the question started, nor after the game clock', () => {
    const game = startQuiz();
    game.advance(4_000);
    const early = game.dispatch(held('ann', T0 - 5_000)).find((e) => e.kind === 'saveAnswer');
    expect(early).toMatchObject({ answer: { elapsedMs: 0, pointsEarned: 100 } });
    const ahead = game.dispatch(held('bob', T0 + 60_000)).find((e) => e.kind === 'saveAnswer');
    expect(ahead).toMatchObject({ answer: { elapsedMs: 4_000 } });
  });

  it('is late only if it arrived after the deadline, and never once the question has closed', () => {
    const game = startQuiz();
    game.advance(19_000);
    // The game clock is past the deadline (the closing timer not yet run), the arrival before it: taken.
    game.nowMs = T0 + 20_500;
    expect(game.dispatch(held('ann', T0 + 19_500)).some((e) => e.kind === 'saveAnswer')).toBe(true);
    const late = game.dispatch(held('bob', T0 + 20_400));
    expect(late.some((e) => e.kind === 'saveAnswer')).toBe(false);
    expect(late).toContainEqual(expect.objectContaining({ kind: 'reply', message: expect.objectContaining({ code: ERROR_CODES.lateAnswer }) }));
  });
});

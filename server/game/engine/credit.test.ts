import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../protocol/index.js';
import { MAX_ALLOWANCE_MS, MAX_REVEAL_HOLD_MS, creditedElapsedMs } from './credit.js';
import { pointsForCorrectAnswer } from './scoring.js';
import { FakeRunner, T0, effectsOf, makeProgram, makeQuestion, messagesOf } from './testing/testkit.js';

/** One 10-second, 100-point question (correct choice 1); Ann and Bob on the phones. */
function startQuiz() {
  const game = new FakeRunner(makeProgram([makeQuestion('q1', { timeLimitSeconds: 10 })]));
  game.connect('ann', 'Ann');
  game.connect('bob', 'Bob');
  game.dispatch({ type: 'start' });
  return game;
}

function submit(game: FakeRunner, playerId: string, extra: { answerId?: string; reactionMs?: number; allowanceMs?: number; selectedIndex?: number }) {
  const { selectedIndex = 1, ...rest } = extra;
  return game.dispatch({ type: 'submit_answer', connectionId: `conn-${playerId}`, playerId, questionId: 'q1', selectedIndex, ...rest });
}

describe('the credit rule', () => {
  it('believes the reaction within [serverElapsed − allowance, serverElapsed]', () => {
    expect(creditedElapsedMs(3_000, 2_500, 800)).toBe(2_500); // an honest phone 500 ms away
    expect(creditedElapsedMs(3_000, 1_000, 800)).toBe(2_200); // claims too fast: allowance is the most it gains
    expect(creditedElapsedMs(3_000, 9_000, 800)).toBe(3_000); // never slower than the server saw
    expect(creditedElapsedMs(3_000, undefined, 800)).toBe(3_000); // an older client: the server's time
    expect(creditedElapsedMs(9_000, 0, 60_000)).toBe(9_000 - MAX_ALLOWANCE_MS); // allowance capped at 5 s
    expect(creditedElapsedMs(300, 0, 800)).toBe(0);
  });

  it('lets a lying client gain at most its allowance, never more than 5 s (property)', () => {
    fc.assert(
      fc.property(fc.nat(60_000), fc.nat(120_000), fc.integer({ min: -10, max: 60_000 }), (serverElapsed, reaction, allowance) => {
        const credited = creditedElapsedMs(serverElapsed, reaction, allowance);
        const gain = serverElapsed - credited;
        expect(credited).toBeGreaterThanOrEqual(0);
        expect(credited).toBeLessThanOrEqual(serverElapsed);
        expect(gain).toBeLessThanOrEqual(Math.min(Math.max(allowance, 0), MAX_ALLOWANCE_MS));
        // An honest phone (reaction within the measured delay) is credited exactly its reaction.
        if (reaction <= serverElapsed && serverElapsed - reaction <= Math.min(Math.max(allowance, 0), MAX_ALLOWANCE_MS)) expect(credited).toBe(reaction);
      }),
    );
  });

  it('scores a slow phone by its reaction: the points its tap earns on a perfect network', () => {
    const game = startQuiz();
    game.advance(4_000); // the question took 1.2 s to reach Ann and her answer 0.8 s to come back
    const effects = submit(game, 'ann', { answerId: 'a1', reactionMs: 2_000, allowanceMs: 2_100 });
    const [save] = effectsOf(effects, 'saveAnswer');
    expect(save.answer).toMatchObject({ elapsedMs: 2_000, pointsEarned: pointsForCorrectAnswer(100, 10, 2_000), answeredAtMs: T0 + 4_000 });
    expect(messagesOf(effects, 'answer_accepted')).toEqual([{ type: 'answer_accepted', questionId: 'q1', selectedIndex: 1, answerId: 'a1' }]);
  });
});

describe('resends and refusals', () => {
  it('answers a resend of the same pick with the same acceptance, on the asking socket only, changing nothing', () => {
    const game = startQuiz();
    game.advance(1_000);
    submit(game, 'ann', { answerId: 'a1', reactionMs: 900, selectedIndex: 2 });
    const before = game.state;
    const again = submit(game, 'ann', { answerId: 'a1', reactionMs: 900, selectedIndex: 2 });
    expect(again).toEqual([{ kind: 'reply', connectionId: 'conn-ann', message: { type: 'answer_accepted', questionId: 'q1', selectedIndex: 2, answerId: 'a1' } }]);
    expect(game.state).toBe(before);
  });

  it('refuses a different pick naming the question and the pick', () => {
    const game = startQuiz();
    submit(game, 'ann', { answerId: 'a1' });
    const [error] = messagesOf(submit(game, 'ann', { answerId: 'a2', selectedIndex: 3 }), 'error');
    expect(error).toMatchObject({ code: ERROR_CODES.duplicateAnswer, questionId: 'q1', answerId: 'a2' });
  });

  it('takes an answer arriving after the deadline when its credited time is within the limit, and refuses one that is not', () => {
    const game = startQuiz();
    game.dispatch({ type: 'player_delay', playerId: 'ann', allowanceMs: 1_200 });
    game.dispatch({ type: 'player_delay', playerId: 'bob', allowanceMs: 1_200 });
    game.advance(10_000);
    expect(game.phase).toBe('question'); // held for answers in flight
    game.advance(500);
    expect(messagesOf(submit(game, 'ann', { answerId: 'a1', reactionMs: 9_600, allowanceMs: 1_200 }), 'answer_accepted')).toHaveLength(1);
    const [late] = messagesOf(submit(game, 'bob', { answerId: 'b1', reactionMs: 8_000, allowanceMs: 200 }), 'error');
    expect(late).toMatchObject({ code: ERROR_CODES.lateAnswer, questionId: 'q1', answerId: 'b1' });
  });
});

describe('the reveal hold', () => {
  it('waits past the deadline only as long as a present player’s measured delay, at most MAX_REVEAL_HOLD_MS (under 1.5 s)', () => {
    const game = startQuiz();
    game.dispatch({ type: 'player_delay', playerId: 'ann', allowanceMs: 4_000 });
    game.advance(10_000 + MAX_REVEAL_HOLD_MS - 1);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(game.phase).toBe('reveal');
    expect(game.messages('question_end')[0].atMs).toBe(T0 + 10_000 + MAX_REVEAL_HOLD_MS);
  });

  it('does not hold when the phones still to answer have a fast link, and ends once the last one answers', () => {
    const game = startQuiz();
    game.advance(10_000);
    expect(game.phase).toBe('reveal'); // no measured delay: nothing can be in flight

    const held = startQuiz();
    held.dispatch({ type: 'player_delay', playerId: 'bob', allowanceMs: 1_000 });
    submit(held, 'ann', { answerId: 'a1', reactionMs: 3_000 });
    held.advance(10_200);
    expect(held.phase).toBe('question');
    submit(held, 'bob', { answerId: 'b1', reactionMs: 9_500, allowanceMs: 1_000 });
    expect(held.phase).toBe('reveal');
    expect(held.messages('question_end')[0].atMs).toBe(T0 + 10_200);
  });

  it('accepts nothing after question_end, resends included', () => {
    const game = startQuiz();
    game.advance(10_000);
    expect(game.phase).toBe('reveal');
    const [late] = messagesOf(submit(game, 'ann', { answerId: 'a1', reactionMs: 100, allowanceMs: 5_000 }), 'error');
    expect(late).toMatchObject({ code: ERROR_CODES.lateAnswer, questionId: 'q1', answerId: 'a1' });
  });
});

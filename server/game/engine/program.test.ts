import { describe, expect, it } from 'vitest';
import type { AudienceSessionState } from '../../../protocol/index.js';
import { FakeRunner, T0, effectsOf, makeMedia, makeMediaBlock, makeProgram, makeQuestion, makeSlide, messagesOf } from './testing/testkit.js';
import { remapItemIndex } from './program.js';
import { resumeEngine } from './resume.js';
import type { LiveSnapshot, Program } from './types.js';

/** Item id and phase, the engine's position. */
function position(game: FakeRunner): string {
  const { phase } = game.state;
  if (!('itemIndex' in phase)) return phase.kind;
  return `${phase.kind}:${game.state.program.items[phase.itemIndex]?.id ?? phase.itemIndex}`;
}

const q1 = makeQuestion('q1', { timeLimitSeconds: 10 });
const q2 = makeQuestion('q2', { timeLimitSeconds: 10 });
const q3 = makeQuestion('q3', { timeLimitSeconds: 10 });
const slide = makeSlide('s1', 'break');

describe('editing the program of a running session', () => {
  it('keeps the open question as it was and plays the edited program from the next item', () => {
    const game = new FakeRunner(makeProgram([q1, q2]));
    game.connect('ann');
    game.dispatch({ type: 'start' });
    game.advance(2_000);
    const edited = makeProgram([q1, slide, makeQuestion('q2', { text: 'Edited?', timeLimitSeconds: 10 })]);
    expect(game.dispatch({ type: 'program_changed', program: edited })).toEqual([]);
    expect(position(game)).toBe('question:item-q1');
    // The open question is still scored against the program it was asked from.
    expect(messagesOf(game.answer('ann', 'q1', 1), 'answer_result')).toMatchObject([{ isCorrect: true, pointsEarned: 90 }]);
    game.advance(10_000); // reveal 5 s + "Get Ready!" 5 s
    expect(position(game)).toBe('slide:s1');
    game.advance(10_000);
    expect(position(game)).toBe('question:item-q2');
    expect(game.state.phase).toMatchObject({ asking: 2 });
    const shown = messagesOf(game.log.map((l) => l.effect), 'session_state').at(-2) as AudienceSessionState;
    expect(shown.question?.text).toBe('Edited?');
  });

  it('carries on with what followed when the running item was removed', () => {
    const game = new FakeRunner(makeProgram([slide, q1, q2, q3]));
    game.dispatch({ type: 'start' });
    game.advance(11_000);
    expect(position(game)).toBe('question:item-q1');
    game.dispatch({ type: 'program_changed', program: makeProgram([slide, q2, q3]) });
    game.advance(20_000); // q1 runs out, reveal, between
    expect(position(game)).toBe('question:item-q2');
    const persisted = effectsOf(game.log.map((l) => l.effect), 'persist').at(-1)!;
    expect(persisted.live).toMatchObject({ itemIndex: 1, itemId: 'item-q2' });
  });

  it('applies at once during a hold, and Resume continues after the held item in the new order', () => {
    const game = new FakeRunner(makeProgram([q1, q2, q3]), { autoRotate: false });
    game.dispatch({ type: 'start' });
    game.advance(15_000);
    expect(position(game)).toBe('hold:item-q1');
    const changed = game.dispatch({ type: 'program_changed', program: makeProgram([q3, q1, slide, q2]) });
    expect(position(game)).toBe('hold:item-q1');
    expect(effectsOf(changed, 'persist')[0].live).toMatchObject({ phase: 'hold', itemIndex: 1, itemId: 'item-q1' });
    game.dispatch({ type: 'admin_toggle_autorotate', autoRotate: true });
    expect(position(game)).toBe('slide:s1');
  });

  it('gives screens waiting for the start the new media list at once', () => {
    const game = new FakeRunner(makeProgram([q1]));
    const media = [makeMedia('m1', 4)];
    const changed = game.dispatch({ type: 'program_changed', program: makeProgram([q1, slide], { media, mediaItemsPerTransition: 1 }) });
    expect(messagesOf(changed, 'session_state')).toMatchObject([
      { view: 'audience', phase: 'waiting', media, mediaItemCount: 1 },
      { view: 'admin', session: { totalItems: 2 } },
    ]);
    expect(effectsOf(changed, 'persist')).toEqual([]);
  });

  it('Next during a question also moves on to the edited program', () => {
    const game = new FakeRunner(makeProgram([q1, q2]));
    game.dispatch({ type: 'start' });
    game.dispatch({ type: 'program_changed', program: makeProgram([q1, makeMediaBlock('b1', 1), q2]) });
    game.dispatch({ type: 'admin_next_question' });
    expect(position(game)).toBe('media:b1');
  });
});

describe('remapItemIndex', () => {
  const before: Program = makeProgram([slide, q1, q2, q3]);
  it('follows an item that moved and skips to what followed a removed one', () => {
    expect(remapItemIndex(before, makeProgram([q3, q2, q1, slide]), 1)).toBe(2);
    expect(remapItemIndex(before, makeProgram([slide, q3]), 1)).toBe(0); // q1 and q2 gone: next is q3
    expect(remapItemIndex(before, makeProgram([slide, q1]), 3)).toBe(1); // nothing left after: loop
    expect(remapItemIndex(before, makeProgram([]), 2)).toBe(-1);
    expect(remapItemIndex(before, makeProgram([q1]), -1)).toBe(-1);
  });
});

describe('resuming after an edit', () => {
  it('finds the running item by id when it moved in storage', () => {
    const live: LiveSnapshot = {
      version: 1,
      itemIndex: 0,
      itemId: 'item-q1',
      phase: 'question',
      phaseStartedAtMs: T0,
      phaseEndsAtMs: T0 + 10_000,
      asking: 1,
      autoRotate: true,
      mediaItemCount: null,
    };
    const program = makeProgram([slide, q1]);
    const { state } = resumeEngine({ program, autoRotate: true, live, scores: [], answers: [], currentQuestionIndex: 0 }, T0 + 4_000);
    expect(state.phase).toMatchObject({ kind: 'question', itemIndex: 1, startedAtMs: T0, endsAtMs: T0 + 10_000 });
  });
});

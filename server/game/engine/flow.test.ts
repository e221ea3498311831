import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../protocol/index.js';
import type { AudienceSessionState } from '../../../protocol/index.js';
import { FakeRunner, T0, effectsOf, makeMedia, makeMediaBlock, makeProgram, makeQuestion, makeSlide, messagesOf } from './testing/testkit.js';
import type { Effect } from './types.js';

const media = [makeMedia('m1', 4), makeMedia('m2', 6), makeMedia('m3', 10)];

function lastAudienceState(effects: Effect[]): AudienceSessionState {
  const states = messagesOf(effects, 'session_state').filter((m): m is AudienceSessionState => m.view === 'audience');
  return states.at(-1)!;
}

/** Item index and phase, the engine's position. */
function position(game: FakeRunner): string {
  const { phase } = game.state;
  return 'itemIndex' in phase ? `${phase.kind}@${phase.itemIndex}` : phase.kind;
}

describe('slides and media blocks', () => {
  it('shows a slide for 10 s, then the next item', () => {
    const game = new FakeRunner(makeProgram([makeSlide('s1', 'rules'), makeQuestion('q1')]));
    const started = game.dispatch({ type: 'start' });
    expect(lastAudienceState(started)).toMatchObject({
      phase: 'slide',
      question: null,
      slide: { itemId: 's1', slideType: 'rules', slideData: {} },
      endsAt: T0 + 10_000,
    });
    game.advance(9_999);
    expect(position(game)).toBe('slide@0');
    game.advance(1);
    expect(position(game)).toBe('question@1');
  });

  it('plays a media block for the sum of its items’ durations', () => {
    const game = new FakeRunner(makeProgram([makeMediaBlock('b1', 2), makeMediaBlock('b2', 5), makeSlide('s1')], { media }));
    const started = game.dispatch({ type: 'start' });
    expect(lastAudienceState(started)).toMatchObject({ phase: 'media', question: null, slide: null, mediaItemCount: 2, media });
    game.advance(9_999); // 4 s + 6 s
    expect(position(game)).toBe('media@0');
    game.advance(1);
    expect(position(game)).toBe('media@1');
    // A block asking for more items than the session has shows each once: 4 + 6 + 10 s.
    game.advance(19_999);
    expect(position(game)).toBe('media@1');
    game.advance(1);
    expect(position(game)).toBe('slide@2');
  });

  it('plays a media block for 5 s when the session has no media', () => {
    const game = new FakeRunner(makeProgram([makeMediaBlock('b1', 3), makeSlide('s1')]));
    game.dispatch({ type: 'start' });
    game.advance(4_999);
    expect(position(game)).toBe('media@0');
    game.advance(1);
    expect(position(game)).toBe('slide@1');
  });
});

describe('between questions', () => {
  it('after the 5 s reveal, shows the transition media for the sum of the first N durations', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeQuestion('q2')], { media, mediaItemsPerTransition: 2 }));
    game.dispatch({ type: 'start' });
    game.advance(20_000);
    expect(position(game)).toBe('reveal@0');
    const between = game.advance(5_000);
    expect(position(game)).toBe('between@0');
    expect(lastAudienceState(between)).toMatchObject({ phase: 'between', question: null, mediaItemCount: 2, endsAt: T0 + 35_000 });
    game.advance(9_999);
    expect(position(game)).toBe('between@0');
    game.advance(1);
    expect(position(game)).toBe('question@1');
  });

  it('lasts 5 s ("Get Ready!") without media', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeQuestion('q2')], { mediaItemsPerTransition: 3 }));
    game.dispatch({ type: 'start' });
    game.advance(25_000);
    expect(position(game)).toBe('between@0');
    game.advance(4_999);
    expect(position(game)).toBe('between@0');
    game.advance(1);
    expect(position(game)).toBe('question@1');
  });
});

describe('auto-play', () => {
  it('loops back to item 0 after the last item, with a new asking', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeSlide('s1')]));
    game.dispatch({ type: 'start' });
    game.advance(30_000); // question 20 s, reveal 5 s, between 5 s
    expect(position(game)).toBe('slide@1');
    game.advance(10_000);
    expect(game.state.phase).toMatchObject({ kind: 'question', itemIndex: 0, asking: 2, startedAtMs: T0 + 40_000 });
  });

  it('scores a question asked twice as two askings, totals accumulating', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1')]));
    game.connect('ann', 'Ann');
    game.dispatch({ type: 'start' });
    const first = game.answer('ann', 'q1', 1); // instant: 100, and everyone answered
    expect(effectsOf(first, 'saveAnswer')[0]).toMatchObject({ asking: 1 });
    game.advance(10_000); // reveal + between, then q1 again
    expect(game.state.phase).toMatchObject({ kind: 'question', asking: 2 });
    game.advance(10_000);
    const second = game.answer('ann', 'q1', 1); // half-way: 75
    expect(effectsOf(second, 'saveAnswer')[0]).toMatchObject({ asking: 2, answer: { pointsEarned: 75 } });
    expect(messagesOf(second, 'answer_result')).toEqual([
      { type: 'answer_result', playerId: 'ann', questionId: 'q1', isCorrect: true, pointsEarned: 75, newScore: 175, rank: 1, players: 1, pointsToNextPlace: null },
    ]);
  });
});

describe('pause, resume and next', () => {
  it('Pause lets the running question finish with its reveal, then holds until Resume', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeQuestion('q2')]));
    game.dispatch({ type: 'start' });
    game.advance(5_000);
    const paused = game.dispatch({ type: 'admin_pause', connectionId: 'admin-1' });
    expect(messagesOf(paused, 'session_state')).toMatchObject([{ view: 'admin', session: { autoRotate: false } }]);
    expect(effectsOf(paused, 'persist')[0].live).toMatchObject({ autoRotate: false, phase: 'question' });
    game.advance(15_000);
    expect(position(game)).toBe('reveal@0');
    const held = game.advance(5_000);
    expect(position(game)).toBe('hold@0');
    expect(lastAudienceState(held)).toMatchObject({ phase: 'hold', question: null, endsAt: null, mediaItemCount: 1 });
    expect(game.wakeAtMs).toBeNull();
    game.advance(600_000);
    expect(position(game)).toBe('hold@0');
    game.dispatch({ type: 'admin_toggle_autorotate', connectionId: 'admin-1', autoRotate: true });
    expect(game.state.phase).toMatchObject({ kind: 'question', itemIndex: 1, startedAtMs: game.nowMs });
    expect(game.state.autoRotate).toBe(true);
  });

  it('Pause during a slide holds when the slide ends; Next then plays the next item and holds again', () => {
    const game = new FakeRunner(makeProgram([makeSlide('s1'), makeSlide('s2'), makeQuestion('q1')]));
    game.dispatch({ type: 'start' });
    game.dispatch({ type: 'admin_toggle_autorotate', autoRotate: false });
    game.advance(10_000);
    expect(position(game)).toBe('hold@0');
    game.dispatch({ type: 'admin_next_question', connectionId: 'admin-1' });
    expect(position(game)).toBe('slide@1');
    game.advance(10_000);
    expect(position(game)).toBe('hold@1');
  });

  it('Next during a question scores it normally and starts the next item at once', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeSlide('s1')]));
    game.connect('ann', 'Ann');
    game.connect('bob', 'Bob');
    game.dispatch({ type: 'start' });
    game.advance(10_000);
    game.answer('ann', 'q1', 1);
    const next = game.dispatch({ type: 'admin_next_question', connectionId: 'admin-1' });
    const types = next.flatMap((e) => (e.kind === 'broadcast' || e.kind === 'send' ? [e.message.type] : []));
    expect(types).toEqual(['answer_result', 'answer_progress', 'question_end', 'leaderboard_update', 'session_state', 'session_state']);
    expect(messagesOf(next, 'answer_result')[0]).toMatchObject({ playerId: 'ann', pointsEarned: 75, newScore: 75 });
    expect(effectsOf(next, 'saveScores')).toHaveLength(1);
    expect(position(game)).toBe('slide@1');
    expect(game.wakeAtMs).toBe(T0 + 20_000);
  });

  it('Next on the last item loops to item 0', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeSlide('s1')]));
    game.dispatch({ type: 'start' });
    game.dispatch({ type: 'admin_next_question' });
    game.dispatch({ type: 'admin_next_question' });
    expect(game.state.phase).toMatchObject({ kind: 'question', itemIndex: 0, asking: 2 });
  });

  it('Next from a hold advances without changing the paused flag', () => {
    const game = new FakeRunner(makeProgram([makeSlide('s1'), makeSlide('s2')]), { autoRotate: false });
    game.dispatch({ type: 'start' });
    game.advance(10_000);
    expect(position(game)).toBe('hold@0');
    game.dispatch({ type: 'admin_next_question' });
    expect(position(game)).toBe('slide@1');
    expect(game.state.autoRotate).toBe(false);
  });

  it('admin commands are refused when the session is not live', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1')]));
    for (const event of [
      { type: 'admin_next_question', connectionId: 'admin-1' },
      { type: 'admin_pause', connectionId: 'admin-1' },
      { type: 'admin_toggle_autorotate', connectionId: 'admin-1', autoRotate: false },
    ] as const) {
      const before = game.state;
      const effects = game.dispatch(event);
      expect(effects).toEqual([{ kind: 'reply', connectionId: 'admin-1', message: expect.objectContaining({ type: 'error', code: ERROR_CODES.notLive }) }]);
      expect(game.state).toBe(before);
    }
  });

  it('a session without items holds, and Next says why it cannot advance', () => {
    const game = new FakeRunner(makeProgram([]));
    game.dispatch({ type: 'start' });
    expect(position(game)).toBe('hold@-1');
    expect(game.wakeAtMs).toBeNull();
    const effects = game.dispatch({ type: 'admin_next_question', connectionId: 'admin-1' });
    expect(effects).toEqual([{ kind: 'reply', connectionId: 'admin-1', message: expect.objectContaining({ code: ERROR_CODES.noItems }) }]);
  });
});

describe('persistence and stopping', () => {
  it('persists the position, deadline, asking and flag whenever the phase changes', () => {
    const game = new FakeRunner(makeProgram([makeSlide('s1'), makeQuestion('q1')]));
    game.dispatch({ type: 'start' });
    const effects = game.advance(10_000);
    expect(effectsOf(effects, 'persist')).toEqual([
      {
        kind: 'persist',
        sessionId: 'session-1',
        currentQuestionIndex: 0,
        live: {
          version: 1,
          itemIndex: 1,
          itemId: 'item-q1',
          phase: 'question',
          phaseStartedAtMs: T0 + 10_000,
          phaseEndsAtMs: T0 + 30_000,
          asking: 1,
          autoRotate: true,
          mediaItemCount: null,
          roster: [],
        },
      },
    ]);
    // Ticks, answers and connects do not rewrite the snapshot (answers are stored on their own,
    // the runner refreshes the roster lazily).
    game.connect('ann');
    game.connect('bob');
    const quiet = [...game.advance(3_000), ...game.answer('ann', 'q1', 1)];
    expect(effectsOf(quiet, 'persist')).toEqual([]);
  });

  it('stop finishes the game: screens are told, nothing is left to resume, timers end', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1')]));
    game.dispatch({ type: 'start' });
    const stopped = game.dispatch({ type: 'stop' });
    expect(lastAudienceState(stopped)).toMatchObject({ status: 'finished', phase: 'finished', question: null });
    expect(effectsOf(stopped, 'persist')).toMatchObject([{ live: null }]);
    expect(effectsOf(stopped, 'wakeAt')).toEqual([{ kind: 'wakeAt', atMs: null }]);
    expect(game.dispatch({ type: 'timer' })).toEqual([]);
  });
});

describe('leaderboard', () => {
  it('breaks a tie in favour of the player who reached the total first', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeQuestion('q2')]));
    game.connect('zed', 'Zed');
    game.connect('amy', 'Amy');
    game.dispatch({ type: 'start' });
    game.advance(10_000);
    game.answer('zed', 'q1', 1); // 75 at 10 s
    game.advance(20_000); // q1 closes at 20 s; reveal and between; q2 opens at 30 s
    expect(game.state.phase).toMatchObject({ kind: 'question', itemIndex: 1 });
    game.advance(10_000);
    game.answer('amy', 'q2', 1); // 75 at 40 s
    game.answer('zed', 'q2', 0); // wrong: Zed keeps 75, reached at 10 s
    const board = game.messages('leaderboard_update').at(-1)!.message;
    expect(board).toEqual({
      type: 'leaderboard_update',
      leaderboard: [
        { player: { id: 'zed', name: 'Zed' }, score: { pointsTotal: 75 } },
        { player: { id: 'amy', name: 'Amy' }, score: { pointsTotal: 75 } },
      ],
    });
  });
});

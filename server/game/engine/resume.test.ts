import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../protocol/index.js';
import { FakeRunner, T0, effectsOf, makeMedia, makeProgram, makeQuestion, makeSlide, messagesOf } from './testing/testkit.js';
import { parseLiveSnapshot, resumeEngine, type StoredAnswer, type StoredScore } from './resume.js';
import { audienceView, playerView } from './views.js';
import type { LiveSnapshot, Program } from './types.js';

/** What storage would hold after the effects a runner carried out so far. */
function storedFrom(game: FakeRunner) {
  let live: LiveSnapshot | null = null;
  let currentQuestionIndex = 0;
  const answers: StoredAnswer[] = [];
  const scores = new Map<string, StoredScore>();
  for (const { effect } of game.log) {
    if (effect.kind === 'persist') {
      live = effect.live;
      currentQuestionIndex = effect.currentQuestionIndex;
    }
    if (effect.kind === 'saveAnswer') answers.push({ playerId: effect.playerId, asking: effect.asking, ...effect.answer });
    if (effect.kind === 'saveScores') {
      for (const s of effect.scores) scores.set(s.playerId, { ...s, name: game.state.names.get(s.playerId) ?? '' });
    }
  }
  // Storage holds JSON: make sure the snapshot survives the trip.
  return { live: parseLiveSnapshot(JSON.parse(JSON.stringify(live))), currentQuestionIndex, answers, scores: [...scores.values()] };
}

/** Plays the crash: a new runner, later, rebuilt only from what was stored. */
function restart(program: Program, crashed: FakeRunner, downForMs: number): FakeRunner {
  const stored = storedFrom(crashed);
  const game = new FakeRunner(program, { nowMs: crashed.nowMs + downForMs });
  const { state, effects } = resumeEngine({ program, autoRotate: true, ...stored }, game.nowMs);
  game.adopt(state, effects);
  return game;
}

const program = makeProgram([makeQuestion('q1'), makeSlide('s1')]);

function crashMidQuestion(): FakeRunner {
  const game = new FakeRunner(program);
  game.connect('ann', 'Ann');
  game.connect('bob', 'Bob');
  game.dispatch({ type: 'start' });
  game.advance(5_000);
  game.answer('ann', 'q1', 1); // 100 × (1 − 5/40) = 87.5 → 88
  game.advance(3_000);
  return game;
}

describe('resuming after a restart', () => {
  it('continues a question with its remaining time', () => {
    const game = restart(program, crashMidQuestion(), 4_000); // back at 12 s
    expect(game.state.phase).toMatchObject({ kind: 'question', itemIndex: 0, asking: 1, startedAtMs: T0, endsAtMs: T0 + 20_000 });
    expect(audienceView(game.state, game.nowMs)).toMatchObject({ endsAt: T0 + 20_000, timeRemaining: 8, serverTime: T0 + 12_000 });
    expect(game.wakeAtMs).toBe(T0 + 13_000);
    game.advance(1_000);
    expect(game.messages('timer_tick').map((t) => t.message)).toEqual([
      { type: 'timer_tick', questionId: 'q1', timeRemaining: 7, serverTime: T0 + 13_000, endsAt: T0 + 20_000 },
    ]);
    game.advance(6_999);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(game.phase).toBe('reveal');
  });

  it('keeps players who had answered locked, and scores everyone at the end', () => {
    const game = restart(program, crashMidQuestion(), 4_000);
    game.connect('ann', 'Ann');
    game.connect('bob', 'Bob');
    expect(playerView(game.state, 'ann', game.nowMs)).toMatchObject({ answered: true, selectedIndex: 1, playerScore: 0 });
    expect(playerView(game.state, 'bob', game.nowMs)).toMatchObject({ answered: false, selectedIndex: null });

    const again = game.answer('ann', 'q1', 2);
    expect(again).toEqual([{ kind: 'reply', connectionId: 'conn-ann', message: expect.objectContaining({ code: ERROR_CODES.duplicateAnswer }) }]);

    game.advance(3_000); // bob answers at 15 s: 100 × (1 − 15/40) = 62.5 → 63; everyone has answered
    const end = game.answer('bob', 'q1', 1);
    // Each player's own result; the order they go out in is the answers map's (pmap.ts).
    expect(messagesOf(end, 'answer_result').sort((a, b) => a.playerId.localeCompare(b.playerId))).toEqual([
      { type: 'answer_result', playerId: 'ann', questionId: 'q1', isCorrect: true, pointsEarned: 88, newScore: 88, rank: 1, players: 2, pointsToNextPlace: null },
      { type: 'answer_result', playerId: 'bob', questionId: 'q1', isCorrect: true, pointsEarned: 63, newScore: 63, rank: 2, players: 2, pointsToNextPlace: 25 },
    ]);
  });

  it('names a first-time scorer who answered before the restart and is not back yet', () => {
    const crashed = crashMidQuestion();
    const stored = storedFrom(crashed);
    const answers = stored.answers.map((a) => ({ ...a, name: a.playerId === 'ann' ? 'Ann' : a.playerId }));
    const { state, effects } = resumeEngine({ program, autoRotate: true, ...stored, answers }, crashed.nowMs + 1_000);
    const game = new FakeRunner(program, { nowMs: crashed.nowMs + 1_000 });
    game.adopt(state, effects);
    game.advance(20_000);
    expect(game.state.leaderboard).toEqual([{ player: { id: 'ann', name: 'Ann' }, score: { pointsTotal: 88 } }]);
  });

  it('does not end a resumed question early while players are still reconnecting', () => {
    const game = restart(program, crashMidQuestion(), 1_000);
    game.connect('ann', 'Ann'); // she had answered; bob is not back yet
    expect(game.phase).toBe('question');
  });

  it('handles a deadline that passed while the server was down on the first wake', () => {
    const game = restart(program, crashMidQuestion(), 60_000); // back at 68 s; q1 ended at 20 s
    expect(game.wakeAtMs).toBe(T0 + 20_000);
    const first = game.advance(0);
    expect(messagesOf(first, 'answer_result')).toMatchObject([{ playerId: 'ann', pointsEarned: 88 }]);
    expect(messagesOf(first, 'question_end')).toEqual([{ type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 1, 0, 0] }]);
    // The reveal is not swallowed: it starts now and lasts its 5 s.
    expect(game.state.phase).toMatchObject({ kind: 'reveal', startedAtMs: T0 + 68_000, endsAtMs: T0 + 73_000 });
    expect(effectsOf(first, 'saveScores')[0].scores).toEqual([{ playerId: 'ann', pointsTotal: 88, reachedAtMs: T0 + 5_000 }]);
  });

  it('keeps accumulated scores and the asking count across a restart', () => {
    const before = new FakeRunner(program);
    before.connect('ann', 'Ann');
    before.dispatch({ type: 'start' });
    before.answer('ann', 'q1', 1); // 100, everyone answered
    before.advance(12_000); // reveal, between, into the slide
    expect(before.phase).toBe('slide');
    const game = restart(program, before, 2_000);
    expect(game.state.phase).toMatchObject({ kind: 'slide', endsAtMs: T0 + 20_000 });
    expect(game.state.leaderboard).toEqual([{ player: { id: 'ann', name: 'Ann' }, score: { pointsTotal: 100 } }]);
    game.advance(6_000);
    expect(game.state.phase).toMatchObject({ kind: 'question', asking: 2 });
    game.connect('ann', 'Ann');
    expect(messagesOf(game.answer('ann', 'q1', 1), 'answer_result')[0]).toMatchObject({ newScore: 200 });
  });

  it('resumes a reveal with each player’s result', () => {
    const before = crashMidQuestion();
    before.advance(12_000); // q1 closed at 20 s
    expect(before.phase).toBe('reveal');
    const game = restart(program, before, 1_000);
    expect(playerView(game.state, 'ann', game.nowMs)).toMatchObject({
      answered: true,
      answerResult: { isCorrect: true, pointsEarned: 88 },
      playerScore: 88,
      reveal: { questionId: 'q1', correctIndex: 1 },
    });
  });

  it('keeps the stored position of the last question asked after the game looped', () => {
    // Found by the property tests: the position was derived from the snapshot's item, and the
    // slide at item 0 comes after the last question once the game has looped.
    const looping = makeProgram([makeSlide('s1'), makeQuestion('q1', { timeLimitSeconds: 5 }), makeQuestion('q2', { timeLimitSeconds: 5 })]);
    const before = new FakeRunner(looping);
    before.dispatch({ type: 'start' });
    before.advance(40_001); // s1 10 s, q1 5 + 5 + 5 s, q2 5 + 5 + 5 s: back on s1
    expect(before.state).toMatchObject({ phase: { kind: 'slide', itemIndex: 0 }, lastQuestionIndex: 1 });
    const game = restart(looping, before, 0);
    expect(game.state.lastQuestionIndex).toBe(1);
    const paused = game.dispatch({ type: 'admin_pause' });
    expect(effectsOf(paused, 'persist')).toMatchObject([{ currentQuestionIndex: 1 }]);
  });

  it('resumes a hold and waits for Resume', () => {
    const before = new FakeRunner(program, { autoRotate: false });
    before.dispatch({ type: 'start' });
    before.advance(25_000);
    expect(before.phase).toBe('hold');
    const game = restart(program, before, 1_000);
    expect(game.state).toMatchObject({ autoRotate: false, phase: { kind: 'hold', itemIndex: 0 } });
    expect(game.wakeAtMs).toBeNull();
    game.dispatch({ type: 'admin_toggle_autorotate', autoRotate: true });
    expect(game.state.phase).toMatchObject({ kind: 'slide', itemIndex: 1 });
  });

  it('resumes the between-questions media with its stored count and deadline', () => {
    const withMedia = makeProgram([makeQuestion('q1'), makeSlide('s1')], { media: [makeMedia('m1', 8)], mediaItemsPerTransition: 1 });
    const before = new FakeRunner(withMedia);
    before.dispatch({ type: 'start' });
    before.advance(27_000);
    expect(before.phase).toBe('between');
    const game = restart(withMedia, before, 2_000);
    expect(game.state.phase).toMatchObject({ kind: 'between', mediaItemCount: 1, endsAtMs: T0 + 33_000 });
  });

  it('starts from item 0 when the session is live but nothing was stored', () => {
    const { state, effects } = resumeEngine({ program, autoRotate: true, live: null, scores: [], answers: [], currentQuestionIndex: 0 }, T0);
    expect(state.phase).toMatchObject({ kind: 'question', itemIndex: 0, asking: 1 });
    expect(effectsOf(effects, 'wakeAt')).toEqual([{ kind: 'wakeAt', atMs: T0 + 1_000 }]);
  });

  it('restarts the item at the stored position when the program no longer matches', () => {
    const live: LiveSnapshot = {
      version: 1,
      itemIndex: 1,
      itemId: 'gone',
      phase: 'slide',
      phaseStartedAtMs: T0,
      phaseEndsAtMs: T0 + 10_000,
      asking: 3,
      autoRotate: true,
      mediaItemCount: null,
    };
    const { state, effects } = resumeEngine({ program, autoRotate: true, live, scores: [], answers: [], currentQuestionIndex: 0 }, T0 + 5_000);
    expect(state.phase).toMatchObject({ kind: 'slide', itemIndex: 1, startedAtMs: T0 + 5_000 });
    expect(effectsOf(effects, 'persist')[0].live).toMatchObject({ itemId: 's1', asking: 3 });
    expect(messagesOf(effects, 'session_state').length).toBe(2);
  });

  it('parseLiveSnapshot refuses what it does not understand', () => {
    expect(parseLiveSnapshot(null)).toBeNull();
    expect(parseLiveSnapshot({ version: 2 })).toBeNull();
    expect(parseLiveSnapshot({ version: 1, itemIndex: 'x' })).toBeNull();
  });
});

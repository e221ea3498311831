import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../protocol/index.js';
import { FakeRunner, T0, effectsOf, makeProgram, makeQuestion, messagesOf } from './testing/testkit.js';
import { DROP_GRACE_MS } from './presence.js';
import { REVEAL_MS } from './timing.js';

/** One 20-second, 100-point question (correct choice 1), auto-play on. */
function startQuiz(items = [makeQuestion('q1')]) {
  const game = new FakeRunner(makeProgram(items));
  game.connect('ann', 'Ann');
  game.connect('bob', 'Bob');
  game.dispatch({ type: 'start' });
  return game;
}

describe('a question', () => {
  it('is broadcast without correctIndex to the audience and with it to admins', () => {
    const game = startQuiz();
    const states = game.messages('session_state');
    const audience = states.find((m) => m.to === 'audience')!.message;
    const admin = states.find((m) => m.to === 'admins')!.message;
    expect(audience).toMatchObject({
      view: 'audience',
      phase: 'question',
      status: 'live',
      serverTime: T0,
      endsAt: T0 + 20_000,
      timeRemaining: 20,
      question: { id: 'q1', text: 'Question q1?', choices: ['A', 'B', 'C', 'D'], points: 100, timeLimitSeconds: 20 },
    });
    expect(JSON.stringify(audience)).not.toContain('correctIndex');
    expect(admin).toMatchObject({
      view: 'admin',
      question: { id: 'q1', correctIndex: 1 },
      session: { status: 'live', autoRotate: true, currentQuestionIndex: 0, totalQuestions: 1 },
    });
  });

  it('ticks every second with serverTime and endsAt, then ends at the deadline', () => {
    const game = startQuiz();
    game.advance(20_000);
    const ticks = game.messages('timer_tick');
    expect(ticks.map((t) => t.atMs - T0)).toEqual(Array.from({ length: 19 }, (_, i) => (i + 1) * 1000));
    expect(ticks[0].message).toEqual({ type: 'timer_tick', questionId: 'q1', timeRemaining: 19, serverTime: T0 + 1000, endsAt: T0 + 20_000 });
    expect(ticks.at(-1)!.message).toMatchObject({ timeRemaining: 1 });
    expect(ticks.every((t) => t.to === 'all')).toBe(true);
    const end = game.messages('question_end');
    expect(end).toEqual([{ atMs: T0 + 20_000, to: 'all', message: { type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] } }]);
    expect(game.phase).toBe('reveal');
  });

  it('scores at elapsed 0, mid-way and at the deadline', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1')]));
    for (const id of ['ann', 'bob', 'cid', 'dee']) game.connect(id);
    game.dispatch({ type: 'start' });
    game.answer('ann', 'q1', 1); // elapsed 0
    game.advance(10_000);
    game.answer('bob', 'q1', 1); // mid-way
    game.answer('dee', 'q1', 0); // wrong
    game.advance(10_000 - 1);
    // The tick at 20 s is the deadline itself; the answer arriving exactly then still counts.
    game.nowMs = T0 + 20_000;
    game.answer('cid', 'q1', 1);
    const results = Object.fromEntries(
      game.messages('answer_result').map(({ message }) => [(message as { playerId: string }).playerId, message]),
    );
    expect(results.ann).toMatchObject({ isCorrect: true, pointsEarned: 100, newScore: 100, questionId: 'q1' });
    expect(results.bob).toMatchObject({ isCorrect: true, pointsEarned: 75, newScore: 75 });
    expect(results.cid).toMatchObject({ isCorrect: true, pointsEarned: 50, newScore: 50 });
    expect(results.dee).toMatchObject({ isCorrect: false, pointsEarned: 0, newScore: 0 });
  });

  it('stores each answer as it arrives, and the totals when the question closes', () => {
    const game = startQuiz();
    game.advance(4_000);
    const onAnswer = game.answer('ann', 'q1', 1);
    expect(effectsOf(onAnswer, 'saveAnswer')).toEqual([
      {
        kind: 'saveAnswer',
        sessionId: 'session-1',
        playerId: 'ann',
        asking: 1,
        answer: { questionId: 'q1', selectedIndex: 1, isCorrect: true, pointsEarned: 90, elapsedMs: 4_000, answeredAtMs: T0 + 4_000 },
      },
    ]);
    expect(messagesOf(onAnswer, 'answer_accepted')).toEqual([{ type: 'answer_accepted', questionId: 'q1', selectedIndex: 1 }]);
    const atEnd = game.advance(16_000);
    expect(effectsOf(atEnd, 'saveScores')).toEqual([
      { kind: 'saveScores', sessionId: 'session-1', scores: [{ playerId: 'ann', pointsTotal: 90, reachedAtMs: T0 + 4_000 }] },
    ]);
  });

  it('sends answer_result, then question_end, then leaderboard_update', () => {
    const game = startQuiz();
    game.answer('ann', 'q1', 1);
    game.advance(1_000); // the throttled progress update for ann's answer goes out meanwhile
    const atEnd = game.advance(19_000).filter((e) => e.kind === 'broadcast' || e.kind === 'send');
    const order = atEnd.map((e) => (e.kind === 'broadcast' || e.kind === 'send' ? e.message.type : ''));
    // answer_progress (the final count, to admins and displays) comes before the answer is named.
    expect(order.filter((t) => t !== 'timer_tick')).toEqual(['answer_result', 'answer_progress', 'question_end', 'leaderboard_update']);
    expect(messagesOf(atEnd, 'leaderboard_update')[0].leaderboard).toEqual([
      { player: { id: 'ann', name: 'Ann' }, score: { pointsTotal: 100 } },
    ]);
  });

  it('ends early once every connected player has answered', () => {
    const game = startQuiz();
    game.advance(3_000);
    game.answer('ann', 'q1', 1);
    expect(game.phase).toBe('question');
    game.advance(1_000);
    const effects = game.answer('bob', 'q1', 2);
    expect(game.phase).toBe('reveal');
    expect(messagesOf(effects, 'question_end')).toHaveLength(1);
    // The reveal starts at the early end and lasts 5 s.
    expect(game.wakeAtMs).toBe(T0 + 4_000 + REVEAL_MS);
  });

  it('restarts its reveal when the results went out late, and ignores that news in any other phase', () => {
    const game = startQuiz();
    game.advance(3_000);
    expect(game.dispatch({ type: 'results_delivered' })).toEqual([]); // still a question: nothing
    game.answer('ann', 'q1', 1);
    game.answer('bob', 'q1', 2);
    expect(game.phase).toBe('reveal');
    game.advance(4_000); // the results reached the phones only now
    const effects = game.dispatch({ type: 'results_delivered' });
    expect(messagesOf(effects, 'session_state')).toEqual([]); // phones and screens keep the reveal they are in
    expect(game.wakeAtMs).toBe(T0 + 7_000 + REVEAL_MS);
    game.advance(REVEAL_MS - 1);
    expect(game.phase).toBe('reveal');
    game.advance(1);
    expect(game.phase).not.toBe('reveal');
  });

  it('ends early 5 s after the last player who had not answered dropped, not at once', () => {
    const game = startQuiz();
    game.answer('ann', 'q1', 1);
    game.advance(2_000);
    game.dispatch({ type: 'player_disconnected', playerId: 'bob' });
    expect(game.phase).toBe('question');
    game.advance(DROP_GRACE_MS - 1);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(game.phase).toBe('reveal');
    expect(game.messages('question_end').map((m) => m.atMs)).toEqual([T0 + 2_000 + DROP_GRACE_MS]);
  });

  it('counts a player with two sockets as connected until both close', () => {
    const game = startQuiz();
    game.connect('bob', 'Bob');
    game.answer('ann', 'q1', 1);
    game.dispatch({ type: 'player_disconnected', playerId: 'bob' });
    game.advance(DROP_GRACE_MS);
    expect(game.phase).toBe('question');
    game.dispatch({ type: 'player_disconnected', playerId: 'bob' });
    game.advance(DROP_GRACE_MS);
    expect(game.phase).toBe('reveal');
  });

  it('runs the full time when nobody is connected', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1')]));
    game.dispatch({ type: 'start' });
    game.advance(19_999);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(game.phase).toBe('reveal');
  });
});

describe('bad answers are rejected with an error and change nothing', () => {
  function expectRejected(game: FakeRunner, effects: ReturnType<FakeRunner['answer']>, code: string, stateBefore: unknown) {
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ kind: 'reply', connectionId: expect.any(String), message: { type: 'error', code } });
    expect((effects[0] as { message: { message: string } }).message.message.length).toBeGreaterThan(5);
    expect(game.state).toBe(stateBefore);
  }

  it('a second submission in the same asking', () => {
    const game = startQuiz();
    game.answer('ann', 'q1', 0);
    const before = game.state;
    expectRejected(game, game.answer('ann', 'q1', 1), ERROR_CODES.duplicateAnswer, before);
  });

  it('an answer after the deadline, before and after the timer fired', () => {
    const game = startQuiz();
    game.nowMs = T0 + 20_001; // the runner's timer is late; the deadline is what counts
    let before = game.state;
    expectRejected(game, game.answer('ann', 'q1', 1), ERROR_CODES.lateAnswer, before);
    game.advance(0);
    expect(game.phase).toBe('reveal');
    before = game.state;
    expectRejected(game, game.answer('bob', 'q1', 1), ERROR_CODES.lateAnswer, before);
  });

  it('an answer for a question that is not current', () => {
    const game = startQuiz([makeQuestion('q1'), makeQuestion('q2')]);
    const before = game.state;
    expectRejected(game, game.answer('ann', 'q2', 1), ERROR_CODES.wrongQuestion, before);
  });

  it('an answer while no question is open', () => {
    const game = startQuiz();
    game.advance(20_000 + REVEAL_MS); // into the between-questions phase
    expect(game.phase).toBe('between');
    const before = game.state;
    expectRejected(game, game.answer('ann', 'q1', 1), ERROR_CODES.noQuestion, before);
  });

  it.each([-1, 4, 1.5, Number.NaN])('selectedIndex %s', (selectedIndex) => {
    const game = startQuiz();
    const before = game.state;
    expectRejected(game, game.answer('ann', 'q1', selectedIndex), ERROR_CODES.invalidChoice, before);
  });

  it('an answer before the session is live', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1')]));
    const before = game.state;
    expectRejected(game, game.answer('ann', 'q1', 1), ERROR_CODES.notLive, before);
  });
});

describe('the correct answer stays secret until question_end', () => {
  it('no player or display message before question_end mentions correctIndex', () => {
    const game = startQuiz([makeQuestion('q1'), makeQuestion('q2', { correctIndex: 3 })]);
    game.answer('ann', 'q1', 1);
    game.advance(5_000);
    game.answer('bob', 'q1', 0); // everyone answered: q1 closes at 5 s
    game.advance(10_000); // reveal 5 s, "Get Ready!" 5 s
    expect(game.state.phase).toMatchObject({ kind: 'question', itemIndex: 1 });
    expect(messagesOf(game.answer('ann', 'q2', 3), 'answer_accepted')).toHaveLength(1);
    game.advance(60_000);
    const audienceFacing = game.messages().filter((m) => !['admins', 'connection:admin'].includes(m.to));
    expect(audienceFacing.filter((m) => m.message.type === 'question_end').length).toBeGreaterThanOrEqual(3);
    for (const { message } of audienceFacing) {
      if (message.type === 'question_end') continue;
      expect(JSON.stringify(message)).not.toContain('correctIndex');
    }
  });
});

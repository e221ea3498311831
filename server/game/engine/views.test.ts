import { describe, expect, it } from 'vitest';
import { FakeRunner, T0, makeMedia, makeProgram, makeQuestion, makeSlide } from './testing/testkit.js';
import { adminView, audienceView, playerView } from './views.js';

const media = [makeMedia('m1', 3)];
const program = makeProgram([makeSlide('s1', 'join'), makeQuestion('q1'), makeQuestion('q2')], { media, mediaItemsPerTransition: 2 });

describe('session_state for a newly connected screen', () => {
  it('before the session is live: no question, transition media, and the stored leaderboard', () => {
    const game = new FakeRunner(program, { scores: [{ playerId: 'ann', name: 'Ann', pointsTotal: 40, reachedAtMs: 1 }] });
    expect(audienceView(game.state, T0)).toEqual({
      type: 'session_state',
      view: 'audience',
      sessionId: 'session-1',
      status: 'scheduled',
      phase: 'waiting',
      serverTime: T0,
      endsAt: null,
      timeRemaining: null,
      question: null,
      slide: null,
      reveal: null,
      leaderboard: [{ player: { id: 'ann', name: 'Ann' }, score: { pointsTotal: 40 } }],
      media,
      mediaItemCount: 2,
    });
    expect(adminView(game.state, T0).session).toEqual({
      status: 'scheduled',
      autoRotate: true,
      currentQuestionIndex: null,
      totalQuestions: 2,
      currentItemIndex: null,
      totalItems: 3,
    });
    expect(playerView(game.state, 'ann', T0)).toMatchObject({ view: 'player', playerScore: 40, answered: false });
  });

  it('during a slide: the slide, and "No active question" for admins', () => {
    const game = new FakeRunner(program);
    game.dispatch({ type: 'start' });
    game.advance(4_200);
    expect(audienceView(game.state, game.nowMs)).toMatchObject({
      phase: 'slide',
      slide: { itemId: 's1', slideType: 'join', slideData: { text: 'Scan to Join!' } },
      question: null,
      endsAt: T0 + 10_000,
      timeRemaining: 6,
      mediaItemCount: null,
    });
    expect(adminView(game.state, game.nowMs).session).toMatchObject({ currentQuestionIndex: null, currentItemIndex: 0 });
  });

  it('during a question: players see their own answer but never the correct one', () => {
    const game = new FakeRunner(program);
    game.connect('ann', 'Ann');
    game.connect('bob', 'Bob');
    game.dispatch({ type: 'start' });
    game.advance(10_000);
    game.answer('ann', 'q1', 3);
    game.advance(2_500);
    const ann = playerView(game.state, 'ann', game.nowMs);
    expect(ann).toMatchObject({
      phase: 'question',
      question: { id: 'q1' },
      answered: true,
      selectedIndex: 3,
      answerResult: null,
      timeRemaining: 18,
      endsAt: T0 + 30_000,
    });
    expect(playerView(game.state, 'bob', game.nowMs)).toMatchObject({ answered: false, selectedIndex: null });
    for (const view of [ann, playerView(game.state, 'bob', game.nowMs), audienceView(game.state, game.nowMs)]) {
      expect(JSON.stringify(view)).not.toContain('correctIndex');
    }
    // "Question 1 of 2" for the admin, who may see the answer.
    expect(adminView(game.state, game.nowMs)).toMatchObject({
      question: { id: 'q1', correctIndex: 1 },
      session: { currentQuestionIndex: 0, totalQuestions: 2, currentItemIndex: 1 },
    });
  });

  it('during the reveal: the correct choice and the player’s result', () => {
    const game = new FakeRunner(program);
    game.connect('ann', 'Ann');
    game.dispatch({ type: 'start' });
    game.advance(10_000);
    game.answer('ann', 'q1', 3); // wrong; everyone answered, so the reveal starts
    expect(playerView(game.state, 'ann', game.nowMs)).toMatchObject({
      phase: 'reveal',
      reveal: { questionId: 'q1', correctIndex: 1 },
      answerResult: { isCorrect: false, pointsEarned: 0 },
      playerScore: 0,
    });
  });
});

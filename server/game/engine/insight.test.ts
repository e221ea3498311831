import { describe, expect, it } from 'vitest';
import { LOBBY_RECENT_NAMES, type AnswerProgressMessage } from '../../../protocol/index.js';
import { PROGRESS_INTERVAL_MS } from './insight.js';
import { audienceView } from './views.js';
import { FakeRunner, T0, makeProgram, makeQuestion, makeSlide, messagesOf } from './testing/testkit.js';

/** One 20-second question (correct choice 1), then a slide; auto-play on. */
function quiz(players: string[]) {
  const game = new FakeRunner(makeProgram([makeQuestion('q1'), makeSlide('s1')]));
  for (const id of players) game.connect(id, id.toUpperCase());
  return game;
}

const progressSent = (game: FakeRunner) => game.messages('answer_progress') as { atMs: number; to: string; message: AnswerProgressMessage }[];

describe('answer progress', () => {
  it('starts each question at 0 of the phones connected, for admins and displays only', () => {
    const game = quiz(['ann', 'bob', 'cid']);
    const started = game.dispatch({ type: 'start' });
    expect(messagesOf(started, 'answer_progress')).toEqual([{ type: 'answer_progress', questionId: 'q1', answered: 0, players: 3 }]);
    expect(progressSent(game).every((m) => m.to === 'screens')).toBe(true);
  });

  it('counts answers, at most once per interval, and once more when the question ends', () => {
    const game = quiz(['ann', 'bob', 'cid', 'dan']);
    game.dispatch({ type: 'start' });
    game.advance(1_000);
    const first = game.answer('ann', 'q1', 1); // a quiet spell before: goes out at once
    expect(messagesOf(first, 'answer_progress')).toEqual([{ type: 'answer_progress', questionId: 'q1', answered: 1, players: 4 }]);
    game.advance(10);
    expect(messagesOf(game.answer('bob', 'q1', 0), 'answer_progress')).toEqual([]); // folded into the next update
    game.advance(10);
    expect(messagesOf(game.answer('cid', 'q1', 1), 'answer_progress')).toEqual([]);
    const due = game.advance(PROGRESS_INTERVAL_MS);
    expect(messagesOf(due, 'answer_progress')).toEqual([{ type: 'answer_progress', questionId: 'q1', answered: 3, players: 4 }]);
    expect(progressSent(game).at(-1)!.atMs).toBe(T0 + 1_000 + PROGRESS_INTERVAL_MS);

    // The last answer ends the question early: its final count goes out regardless of the interval.
    game.advance(1);
    const end = game.answer('dan', 'q1', 2);
    const types = end.flatMap((e) => (e.kind === 'broadcast' ? [e.message.type] : []));
    expect(types.indexOf('answer_progress')).toBeLessThan(types.indexOf('question_end'));
    expect(messagesOf(end, 'answer_progress')).toEqual([{ type: 'answer_progress', questionId: 'q1', answered: 4, players: 4 }]);
  });

  it('never sends more than one update per interval, however many answers arrive', () => {
    const players = Array.from({ length: 200 }, (_, i) => `p${String(i).padStart(3, '0')}`);
    const game = quiz([...players, 'late']); // 'late' never answers: the question runs its time
    game.dispatch({ type: 'start' });
    for (const id of players) {
      game.advance(7); // 200 answers over 1.4 s
      game.answer(id, 'q1', 1);
    }
    game.advance(20_000);
    const during = progressSent(game).filter((m) => m.atMs > T0 && m.message.answered < players.length + 1);
    const times = during.map((m) => m.atMs);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS);
    expect(during.length).toBeLessThanOrEqual(Math.ceil(1_400 / PROGRESS_INTERVAL_MS) + 1);
    // The question closed at its deadline with everyone's answers counted.
    expect(progressSent(game).at(-1)!.message).toMatchObject({ answered: 200, players: 201 });
  });

  it('tells admins and displays who is in the room: phones, displays and the latest names, a second tab of one player counting once', () => {
    const game = quiz([]);
    const first = game.connect('ann');
    expect(messagesOf(first, 'presence')).toEqual([{ type: 'presence', players: 1, displays: 0, joined: 1, recentNames: ['ann'] }]);
    game.advance(1_000);
    expect(messagesOf(game.connect('ann'), 'presence')).toEqual([]); // same player, second socket
    const display = game.dispatch({ type: 'display_connected' });
    expect(messagesOf(display, 'presence')).toEqual([{ type: 'presence', players: 1, displays: 1, joined: 1, recentNames: ['ann'] }]);
    game.advance(1);
    game.connect('bob');
    expect(messagesOf(game.advance(PROGRESS_INTERVAL_MS), 'presence')).toEqual([{ type: 'presence', players: 2, displays: 1, joined: 2, recentNames: ['bob', 'ann'] }]);
    expect(game.messages('presence').every((m) => m.to === 'screens')).toBe(true);
  });

  it('keeps the lobby list to the latest joiners, a returning phone keeping its place', () => {
    const game = quiz([]);
    const names = Array.from({ length: LOBBY_RECENT_NAMES + 2 }, (_, i) => `p${i}`);
    for (const name of names) {
      game.connect(name);
      game.advance(PROGRESS_INTERVAL_MS);
    }
    game.dispatch({ type: 'player_disconnected', playerId: 'p9' });
    game.advance(PROGRESS_INTERVAL_MS);
    game.connect('p9');
    game.advance(PROGRESS_INTERVAL_MS);
    const last = game.messages('presence').at(-1)!.message;
    expect(last).toMatchObject({ joined: names.length, recentNames: names.slice(2).reverse() });
  });

  it('sends presence only when someone came or went, not with every answer count (issue 26)', () => {
    const game = quiz(['ann', 'bob', 'cid']);
    game.dispatch({ type: 'start' });
    game.advance(1_000);
    const presenceBefore = game.messages('presence').length;
    for (const id of ['ann', 'bob']) {
      game.advance(PROGRESS_INTERVAL_MS + 1); // each answer's count goes out at once
      expect(messagesOf(game.answer(id, 'q1', 1), 'answer_progress')).toHaveLength(1);
    }
    expect(game.messages('presence')).toHaveLength(presenceBefore);
    // A phone arriving mid-question: the next update carries presence again, with the new count.
    game.advance(PROGRESS_INTERVAL_MS + 1);
    expect(messagesOf(game.connect('dan'), 'presence')).toMatchObject([{ type: 'presence', players: 4, displays: 0, joined: 4 }]);
  });

  it('sends no insight to phones at all', () => {
    const game = quiz(['ann', 'bob']);
    game.dispatch({ type: 'start' });
    game.answer('ann', 'q1', 1);
    game.advance(25_000);
    const insight = [...game.messages('answer_progress'), ...game.messages('presence')];
    expect(insight.length).toBeGreaterThan(0);
    expect(insight.every((m) => m.to === 'screens' || m.to === 'admins')).toBe(true);
  });
});

describe('the split and places', () => {
  it('sends the split per choice with question_end and keeps it in the reveal state', () => {
    const game = quiz(['ann', 'bob', 'cid', 'dan', 'eve']);
    game.dispatch({ type: 'start' });
    game.answer('ann', 'q1', 1);
    game.answer('bob', 'q1', 1);
    game.answer('cid', 'q1', 3);
    game.answer('dan', 'q1', 0);
    const end = game.advance(20_000);
    expect(messagesOf(end, 'question_end')).toEqual([{ type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [1, 2, 0, 1] }]);
    // A display (re)connecting during the reveal gets the split in its session_state.
    expect(audienceView(game.state, game.nowMs).reveal).toEqual({ questionId: 'q1', correctIndex: 1, distribution: [1, 2, 0, 1] });
  });

  it('gives each answering player their place among everyone ranked, ties sharing a place (1, 2, 2, 4)', () => {
    // Ann 100 (answered first), Bob and Cid tied on 90, Dan 0 (wrong).
    const game = new FakeRunner(makeProgram([makeQuestion('q1')]), {
      scores: [
        { playerId: 'bob', name: 'Bob', pointsTotal: 40, reachedAtMs: T0 - 2 },
        { playerId: 'cid', name: 'Cid', pointsTotal: 90, reachedAtMs: T0 - 1 },
        { playerId: 'ann', name: 'Ann', pointsTotal: 0, reachedAtMs: T0 - 3 },
      ],
    });
    for (const id of ['ann', 'bob', 'cid', 'dan']) game.connect(id);
    game.dispatch({ type: 'start' });
    game.answer('ann', 'q1', 1); // instant: 100
    game.advance(8_000);
    game.answer('bob', 'q1', 1); // 8 s of 20: 100 × (1 − 8/40) = 80 → 120
    game.answer('cid', 'q1', 0); // wrong: stays at 90
    const end = game.answer('dan', 'q1', 2); // wrong: 0, ranked last
    const results = Object.fromEntries(messagesOf(end, 'answer_result').map((r) => [r.playerId, r]));
    expect(results.bob).toMatchObject({ newScore: 120, rank: 1, players: 4, pointsToNextPlace: null });
    expect(results.ann).toMatchObject({ newScore: 100, rank: 2, players: 4, pointsToNextPlace: 20 });
    expect(results.cid).toMatchObject({ newScore: 90, rank: 3, players: 4, pointsToNextPlace: 10 });
    expect(results.dan).toMatchObject({ newScore: 0, rank: 4, players: 4, pointsToNextPlace: 90 });
  });

  it('ranks tied totals 1, 2, 2, 4 with the gap to the place above the tie', () => {
    const game = new FakeRunner(makeProgram([makeQuestion('q1', { points: 100 })]), {
      scores: [
        { playerId: 'ann', name: 'Ann', pointsTotal: 300, reachedAtMs: T0 - 5 },
        { playerId: 'bob', name: 'Bob', pointsTotal: 100, reachedAtMs: T0 - 4 },
        { playerId: 'cid', name: 'Cid', pointsTotal: 200, reachedAtMs: T0 - 3 },
        { playerId: 'dan', name: 'Dan', pointsTotal: 50, reachedAtMs: T0 - 2 },
      ],
    });
    for (const id of ['ann', 'bob', 'cid', 'dan']) game.connect(id);
    game.dispatch({ type: 'start' });
    game.answer('ann', 'q1', 0);
    game.answer('bob', 'q1', 1); // instant: 100 → 200, tied with Cid (who got there first)
    game.answer('cid', 'q1', 0);
    const end = game.answer('dan', 'q1', 3);
    const places = messagesOf(end, 'answer_result')
      .sort((a, b) => a.rank - b.rank || a.playerId.localeCompare(b.playerId))
      .map((r) => `${r.playerId}:${r.rank}:${r.pointsToNextPlace}`);
    expect(places).toEqual(['ann:1:null', 'bob:2:100', 'cid:2:100', 'dan:4:150']);
  });
});

import { describe, expect, it } from 'vitest';
import { PMap } from './pmap.js';
import { applyAnswers, pointsForCorrectAnswer } from './scoring.js';
import { buildLeaderboard } from './standings.js';
import type { AnswerRecord, ScoreRecord } from './types.js';

describe('pointsForCorrectAnswer', () => {
  it('gives all the points for an instant answer', () => {
    expect(pointsForCorrectAnswer(100, 20, 0)).toBe(100);
  });

  it('gives three quarters half-way through', () => {
    expect(pointsForCorrectAnswer(100, 20, 10_000)).toBe(75);
  });

  it('gives half the points at the deadline', () => {
    expect(pointsForCorrectAnswer(100, 20, 20_000)).toBe(50);
  });

  it('rounds to the nearest whole point', () => {
    // 10 × (1 − 5/60) = 9.1666…
    expect(pointsForCorrectAnswer(10, 30, 5_000)).toBe(9);
    // 10 × (1 − 15/60) = 7.5 → 8
    expect(pointsForCorrectAnswer(10, 30, 15_000)).toBe(8);
  });

  it('clamps elapsed time to the question window', () => {
    expect(pointsForCorrectAnswer(100, 20, -500)).toBe(100);
    expect(pointsForCorrectAnswer(100, 20, 25_000)).toBe(50);
  });
});

const score = (name: string, pointsTotal: number, reachedAtMs: number): ScoreRecord => ({ name, pointsTotal, reachedAtMs });

describe('buildLeaderboard', () => {
  it('orders by total, then by who reached it first, then by player id', () => {
    const scores = PMap.from<ScoreRecord>([
      ['p-late', score('Late', 200, 5_000)],
      ['p-top', score('Top', 300, 9_000)],
      ['p-early', score('Early', 200, 1_000)],
      ['p-b', score('Bee', 100, 2_000)],
      ['p-a', score('Ay', 100, 2_000)],
    ]);
    expect(buildLeaderboard(scores).map((e) => e.player.id)).toEqual(['p-top', 'p-early', 'p-late', 'p-a', 'p-b']);
  });

  it('keeps the top 10 in the wire shape', () => {
    const scores = PMap.from<ScoreRecord>(Array.from({ length: 15 }, (_, i) => [`p${i}`, score(`P${i}`, i * 10, 0)]));
    const board = buildLeaderboard(scores);
    expect(board).toHaveLength(10);
    expect(board[0]).toEqual({ player: { id: 'p14', name: 'P14' }, score: { pointsTotal: 140 } });
  });
});

describe('applyAnswers', () => {
  const answer = (isCorrect: boolean, pointsEarned: number, answeredAtMs: number): AnswerRecord => ({
    questionId: 'q1',
    selectedIndex: isCorrect ? 1 : 0,
    isCorrect,
    pointsEarned,
    elapsedMs: 0,
    answeredAtMs,
  });

  it('adds points, moves reachedAt only when the total changes, lists first-time wrong answers with 0, writes only what changed', () => {
    const scores = PMap.from<ScoreRecord>([
      ['a', score('Ann', 50, 100)],
      ['b', score('Bob', 70, 200)],
    ]);
    const answers = PMap.from<AnswerRecord>([
      ['a', answer(true, 80, 5_000)],
      ['b', answer(false, 0, 6_000)],
      ['c', answer(false, 0, 7_000)],
    ]);
    const result = applyAnswers(scores, answers, (id) => `name-${id}`);
    expect(result.scores.get('a')).toEqual(score('Ann', 130, 5_000));
    expect(result.scores.get('b')).toEqual(score('Bob', 70, 200));
    expect(result.scores.get('c')).toEqual(score('name-c', 0, 7_000));
    const byPlayer = <T extends { playerId: string }>(list: T[]) => [...list].sort((x, y) => x.playerId.localeCompare(y.playerId));
    expect(byPlayer(result.applied).map((a) => [a.playerId, a.newScore])).toEqual([
      ['a', 130],
      ['b', 70],
      ['c', 0],
    ]);
    // Bob's wrong answer left his stored total as it was: nothing to write.
    expect(byPlayer(result.writes)).toEqual([
      { playerId: 'a', pointsTotal: 130, reachedAtMs: 5_000 },
      { playerId: 'c', pointsTotal: 0, reachedAtMs: 7_000 },
    ]);
    // The input map is untouched.
    expect(scores.get('a')).toEqual(score('Ann', 50, 100));
  });

  it('gives the same results in the same order however the answers arrived', () => {
    const scores = PMap.from<ScoreRecord>(Array.from({ length: 40 }, (_, i) => [`p${i}`, score(`P${i}`, i * 10, i)] as [string, ScoreRecord]));
    const entries = Array.from({ length: 60 }, (_, i) => [`p${(i * 37) % 60}`, answer(i % 3 === 0, i % 3 === 0 ? 50 + i : 0, 1_000 + i)] as [string, AnswerRecord]);
    const inOrder = applyAnswers(scores, PMap.from(entries), (id) => id);
    const reversed = applyAnswers(scores, [...entries].reverse().reduce((map, [id, a]) => map.set(id, a), PMap.empty<AnswerRecord>()), (id) => id);
    expect(reversed.applied).toEqual(inOrder.applied);
    expect(reversed.writes).toEqual(inOrder.writes);
    expect(inOrder.applied).toHaveLength(60);
  });
});

import { describe, expect, it } from 'vitest';
import { PMap } from './pmap.js';
import { placeOf, placesOf, rankEveryone, rerank, topOf } from './standings.js';
import type { ScoreRecord } from './types.js';

const score = (pointsTotal: number, reachedAtMs: number, name = 'P'): ScoreRecord => ({ name, pointsTotal, reachedAtMs });

/** Small deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('standings', () => {
  it('ranks by total, then by who reached it first, then by player id', () => {
    const scores = PMap.from<ScoreRecord>([
      ['a-late', score(200, 5_000)],
      ['top', score(300, 9_000)],
      ['z-early', score(200, 1_000)],
      ['p-b', score(100, 2_000)],
      ['p-a', score(100, 2_000)],
    ]);
    expect(rankEveryone(scores)).toEqual(['top', 'z-early', 'a-late', 'p-a', 'p-b']);
  });

  it('a player who catches up later ranks below the one who had that total first', () => {
    let scores = PMap.from<ScoreRecord>([
      ['ann', score(100, 1_000)],
      ['bob', score(50, 2_000)],
    ]);
    const before = rankEveryone(scores);
    scores = scores.set('bob', score(100, 8_000));
    expect(rerank(before, scores, ['bob'])).toEqual(['ann', 'bob']);
    scores = scores.set('ann', score(100, 1_000)).set('bob', score(150, 9_000));
    expect(rerank(before, scores, ['bob'])).toEqual(['bob', 'ann']);
  });

  it('merging the changed players gives the same order as sorting everyone, ties included', () => {
    const rng = random(12);
    let scores = PMap.empty<ScoreRecord>();
    let standings = rankEveryone(scores);
    for (let question = 0; question < 30; question++) {
      const changed: [string, ScoreRecord][] = [];
      for (let i = 0; i < 400; i++) {
        const playerId = `player-${Math.floor(rng() * 1_000)}`;
        const old = scores.get(playerId);
        // Few distinct totals and reach times, so equal totals and equal times both happen often.
        const gained = Math.floor(rng() * 3) * 50;
        const reachedAtMs = question * 10 + Math.floor(rng() * 3);
        if (!old) changed.push([playerId, score(gained, reachedAtMs)]);
        else if (gained > 0) changed.push([playerId, score(old.pointsTotal + gained, reachedAtMs)]);
      }
      scores = scores.setAll(changed);
      standings = rerank(standings, scores, changed.map(([id]) => id));
      expect(standings).toEqual(rankEveryone(scores));
    }
    expect(standings.length).toBe(scores.size);
  });

  it('keeps the same standings when nobody changed', () => {
    const scores = PMap.from<ScoreRecord>([['a', score(10, 1)]]);
    const standings = rankEveryone(scores);
    expect(rerank(standings, scores, [])).toBe(standings);
  });

  it('gives the top 10 in the wire shape', () => {
    const scores = PMap.from<ScoreRecord>(Array.from({ length: 15 }, (_, i) => [`p${i}`, score(i * 10, 0, `P${i}`)]));
    const board = topOf(rankEveryone(scores), scores);
    expect(board).toHaveLength(10);
    expect(board[0]).toEqual({ player: { id: 'p14', name: 'P14' }, score: { pointsTotal: 140 } });
    expect(board[9].player.id).toBe('p5');
  });

  it('players with the same total share a rank; the next rank skips; the gap is to the total above', () => {
    const scores = PMap.from<ScoreRecord>([
      ['first', score(300, 5)],
      ['tie-early', score(200, 1)],
      ['tie-late', score(200, 9)],
      ['fourth', score(100, 1)],
      ['zero', score(0, 1)],
    ]);
    const places = placesOf(rankEveryone(scores), scores);
    const placeOfEach = Object.fromEntries(['first', 'tie-early', 'tie-late', 'fourth', 'zero'].map((id) => [id, placeOf(id, places)]));
    expect(placeOfEach).toEqual({
      first: { rank: 1, pointsToNextPlace: null },
      'tie-early': { rank: 2, pointsToNextPlace: 100 },
      'tie-late': { rank: 2, pointsToNextPlace: 100 },
      fourth: { rank: 4, pointsToNextPlace: 100 },
      zero: { rank: 5, pointsToNextPlace: 100 },
    });
    // Not on the board: after everyone, the gap to the last one.
    expect(placeOf('newcomer', places)).toEqual({ rank: 6, pointsToNextPlace: 0 });
    expect(placeOf('anyone', placesOf([], PMap.empty()))).toEqual({ rank: 1, pointsToNextPlace: null });
  });

  it('a tie at the top: both first, with no gap to close', () => {
    const scores = PMap.from<ScoreRecord>([
      ['a', score(500, 1)],
      ['b', score(500, 2)],
      ['c', score(400, 1)],
    ]);
    const places = placesOf(rankEveryone(scores), scores);
    expect([placeOf('a', places), placeOf('b', places), placeOf('c', places)]).toEqual([
      { rank: 1, pointsToNextPlace: null },
      { rank: 1, pointsToNextPlace: null },
      { rank: 3, pointsToNextPlace: 100 },
    ]);
  });
});

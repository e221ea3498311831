/**
 * Standings: every scorer's player id, best first (compareStandings: total, then who reached it
 * first, then id). Kept in the state from one question's end to the next, because a question
 * changes few totals: only players who scored move (up), and newcomers join. Re-ranking merges
 * those few, sorted, into the unchanged order, O(players + changed × log changed), instead of
 * sorting ten thousand players at every question's end. The top 10 and every player's rank are
 * read off the same order.
 */
import type { LeaderboardEntry } from '../../../protocol/index.js';
import type { PMap } from './pmap.js';
import { compareScores, compareStandings, LEADERBOARD_SIZE } from './scoring.js';
import type { Standings } from './state-parts.js';
import type { ScoreRecord } from './types.js';


interface Standing {
  playerId: string;
  score: ScoreRecord;
}

function standingsOf(ids: Iterable<string>, scores: PMap<ScoreRecord>): Standing[] {
  const out: Standing[] = [];
  for (const playerId of ids) {
    const score = scores.get(playerId);
    if (score) out.push({ playerId, score });
  }
  return out;
}

/** Everyone, by one full sort: for a state built from stored scores. */
export function rankEveryone(scores: PMap<ScoreRecord>): Standings {
  return standingsOf(scores.keyList(), scores)
    .sort(compareStandings)
    .map((s) => s.playerId);
}

/**
 * The standings after the records of `changed` players were replaced or added in `scores`. The
 * others keep their records, so their relative order still holds: they only need the changed
 * ones merged back in. Returns `previous` itself when nothing changed.
 */
export function rerank(previous: Standings, scores: PMap<ScoreRecord>, changed: Iterable<string>): Standings {
  const changedIds = new Set(changed);
  if (changedIds.size === 0) return previous;
  const moved = standingsOf(changedIds, scores).sort(compareStandings);
  const merged: string[] = [];
  let m = 0;
  for (const playerId of previous) {
    if (changedIds.has(playerId)) continue;
    const score = scores.get(playerId)!;
    while (m < moved.length && compareScores(moved[m].playerId, moved[m].score, playerId, score) < 0) merged.push(moved[m++].playerId);
    merged.push(playerId);
  }
  while (m < moved.length) merged.push(moved[m++].playerId);
  return merged;
}

/** The top of everyone's standings, by a full sort (a state built from stored scores). */
export function buildLeaderboard(scores: PMap<ScoreRecord>, size = LEADERBOARD_SIZE): LeaderboardEntry[] {
  return topOf(rankEveryone(scores), scores, size);
}

/** The first `size` of the standings in the wire shape. */
export function topOf(standings: Standings, scores: PMap<ScoreRecord>, size = LEADERBOARD_SIZE): LeaderboardEntry[] {
  return standingsOf(standings.slice(0, size), scores).map(({ playerId, score }) => ({
    player: { id: playerId, name: score.name },
    score: { pointsTotal: score.pointsTotal },
  }));
}

/**
 * Everyone's place at a question's end, read off the standings in one pass: each player's
 * position, the rank at each position and the total there. A place is then read without going
 * back to the scores (placeOf), which at a close of 10,000 players was three lookups each.
 */
export interface Places {
  /** Position in the standings, by player. */
  position: Map<string, number>;
  /** 1-based, by position: players with the same total share a rank (1, 2, 2, 4). */
  ranks: number[];
  /** Total, by position. */
  totals: number[];
}

export function placesOf(standings: Standings, scores: PMap<ScoreRecord>): Places {
  const position = new Map<string, number>();
  const ranks = new Array<number>(standings.length);
  const totals = new Array<number>(standings.length);
  let rank = 0;
  for (let index = 0; index < standings.length; index++) {
    const playerId = standings[index];
    const total = scores.get(playerId)!.pointsTotal;
    // Who reached a total first decides the order of the list, not the rank shown.
    if (index === 0 || total !== totals[index - 1]) rank = index + 1;
    position.set(playerId, index);
    ranks[index] = rank;
    totals[index] = total;
  }
  return { position, ranks, totals };
}

export interface Place {
  rank: number;
  /** Points to the next place up; null in first place. */
  pointsToNextPlace: number | null;
}

/**
 * One player's place. The player just before a tie group holds the next higher total: the gap is
 * read there. Someone not in the standings (no score yet) comes after everyone.
 */
export function placeOf(playerId: string, places: Places): Place {
  const { position, ranks, totals } = places;
  const index = position.get(playerId);
  if (index === undefined) return { rank: totals.length + 1, pointsToNextPlace: totals.length > 0 ? totals[totals.length - 1] : null };
  const rank = ranks[index];
  return { rank, pointsToNextPlace: rank > 1 ? totals[rank - 2] - totals[index] : null };
}

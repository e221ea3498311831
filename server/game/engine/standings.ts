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
import { compareStandings, LEADERBOARD_SIZE } from './scoring.js';
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
    const kept: Standing = { playerId, score: scores.get(playerId)! };
    while (m < moved.length && compareStandings(moved[m], kept) < 0) merged.push(moved[m++].playerId);
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
 * Every player's rank, 1-based, in one pass over the standings. Players with the same total share
 * a rank (1, 2, 2, 4): who reached it first decides the order of the list, not the rank shown.
 */
export function ranksOf(standings: Standings, scores: PMap<ScoreRecord>): Map<string, number> {
  const ranks = new Map<string, number>();
  let rank = 0;
  let previousTotal = Number.NaN;
  standings.forEach((playerId, index) => {
    const total = scores.get(playerId)!.pointsTotal;
    if (total !== previousTotal) rank = index + 1;
    previousTotal = total;
    ranks.set(playerId, rank);
  });
  return ranks;
}

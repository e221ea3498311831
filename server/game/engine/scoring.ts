/**
 * Points and standings. Pure functions with deterministic tie-breaks, so two servers (or a
 * server before and after a restart) always agree on the leaderboard.
 */
import type { PMap } from './pmap.js';
import type { AnswerRecord, ScoreRecord, ScoreWrite } from './types.js';

export const LEADERBOARD_SIZE = 10;

/**
 * Points for a correct answer: round(points × (1 − elapsed / (2 × timeLimit))), elapsed measured
 * by the server from the question's broadcast to the answer's arrival and clamped to
 * [0, timeLimit]; an instant answer earns all the points, one at the deadline half.
 */
export function pointsForCorrectAnswer(points: number, timeLimitSeconds: number, elapsedMs: number): number {
  const limitMs = timeLimitSeconds * 1000;
  if (limitMs <= 0) return Math.round(points);
  const clampedMs = Math.min(Math.max(elapsedMs, 0), limitMs);
  return Math.round(points * (1 - clampedMs / (2 * limitMs)));
}

interface Standing {
  playerId: string;
  score: ScoreRecord;
}

/** Highest total first; on a tie, who reached it first; then the player id, so order is total. */
export function compareStandings(a: Standing, b: Standing): number {
  return compareScores(a.playerId, a.score, b.playerId, b.score);
}

/** compareStandings on its parts: a merge of 10,000 players makes no pair objects for it. */
export function compareScores(aId: string, a: ScoreRecord, bId: string, b: ScoreRecord): number {
  if (a.pointsTotal !== b.pointsTotal) return b.pointsTotal - a.pointsTotal;
  if (a.reachedAtMs !== b.reachedAtMs) return a.reachedAtMs - b.reachedAtMs;
  return aId < bId ? -1 : aId > bId ? 1 : 0;
}

export interface AppliedAnswer {
  playerId: string;
  answer: AnswerRecord;
  newScore: number;
}

/**
 * Adds one asking's answers to the totals. Every player who answered gets a score row (a wrong
 * first answer puts them on the board with 0); `reachedAtMs` moves only when the total changes.
 * Only records that changed are written (and re-ranked): a wrong answer from a player already on
 * the board changes nothing, and with four choices that is most answers.
 */
export function applyAnswers(
  scores: PMap<ScoreRecord>,
  answers: PMap<AnswerRecord>,
  nameOf: (playerId: string) => string,
): { scores: PMap<ScoreRecord>; applied: AppliedAnswer[]; writes: ScoreWrite[] } {
  const applied: AppliedAnswer[] = [];
  const writes: ScoreWrite[] = [];
  const changed: [string, ScoreRecord][] = [];
  // The map's walk follows its keys, not the order the answers came in (pmap.ts), so the effects
  // come out in the same order however they arrived, with no sort of 10,000 answers at a close.
  answers.forEach((answer, playerId) => {
    const old = scores.get(playerId);
    let record: ScoreRecord;
    if (!old) {
      record = { name: nameOf(playerId), pointsTotal: answer.pointsEarned, reachedAtMs: answer.answeredAtMs };
    } else if (answer.pointsEarned > 0) {
      record = { ...old, pointsTotal: old.pointsTotal + answer.pointsEarned, reachedAtMs: answer.answeredAtMs };
    } else {
      record = old;
    }
    applied.push({ playerId, answer, newScore: record.pointsTotal });
    if (record === old) return;
    changed.push([playerId, record]);
    writes.push({ playerId, pointsTotal: record.pointsTotal, reachedAtMs: record.reachedAtMs });
  });
  // One batch write: each part of the map is copied once, not once per player.
  return { scores: scores.setAll(changed), applied, writes };
}

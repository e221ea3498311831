/**
 * A prize draw (DESIGN §11): winners picked uniformly among the session's consenting players not
 * drawn before with at least `minScore` points, recorded with who drew and among how many.
 * Draws of one session run one at a time, so two clicks can never pick the same winner twice.
 */
import type { PrizeDraw } from '../../../protocol/api.js';
import { DomainError } from '../../errors.js';
import type { Store } from '../../storage/store.js';
import { toPrizeDraw } from '../../storage/sessions.js';
import { newId } from '../../storage/util.js';
import { pickWinners, type RandomInt, cryptoRandomInt } from './pick.js';

export interface DrawRequest {
  count: number;
  minScore?: number;
}

export const NOBODY_ELIGIBLE =
  'Nobody can win this draw: no player who ticked the consent box is left (earlier winners are not drawn again)';

export async function runDraw(store: Store, sessionId: string, request: DrawRequest, drawnBy: string, random: RandomInt = cryptoRandomInt): Promise<PrizeDraw> {
  // The scores' transaction: the settle below (SQLite's answer log) follows its outcome.
  return store.scores.transaction(async (trx) => {
    let lock = trx.selectFrom('sessions').select(['id', 'prize_draw']).where('id', '=', sessionId);
    // PostgreSQL: the session row serialises draws; SQLite runs one write transaction at a time anyway.
    if (store.handle.dialect === 'postgres') lock = lock.forUpdate();
    const session = await lock.executeTakeFirst();
    if (!session) throw DomainError.notFound('Session not found');
    await store.scores.settleAnswers(trx, sessionId); // eligible reads `answers` only
    const candidates = await store.draws.eligible(trx, sessionId, request.minScore ?? 0);
    if (candidates.length === 0) {
      const scoreNote = request.minScore ? ` with at least ${request.minScore} points` : '';
      throw DomainError.conflict(`${NOBODY_ELIGIBLE.replace('is left', `is left${scoreNote}`)}.`);
    }
    const prize = toPrizeDraw(session.prize_draw).prize;
    return store.draws.insert(trx, {
      id: newId(),
      sessionId,
      drawnBy,
      prize,
      requestedCount: request.count,
      minScore: request.minScore ?? null,
      eligible: candidates.length,
      winners: pickWinners(candidates, request.count, random),
    });
  });
}

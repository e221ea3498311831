/**
 * Carries out one engine step's effects for a room, in order. An answer joins the group commit
 * and its `answer_accepted` is held until that commit is done (DESIGN §8: a confirmation is a
 * commit). The step's saveScores and persist are committed together, with the answers gathered
 * so far, at the first of them, and awaited: the results players are about to see are stored
 * before they see them, after the acceptances.
 */
import type { Effect, LiveSnapshot } from '../engine/index.js';
import type { Broadcaster } from './broadcaster.js';
import type { GroupCommit, StepWrite } from './group-commit.js';
import type { SnapshotWrite } from './storage.js';

export interface StepEffectsDeps {
  sessionId: string;
  broadcaster: Broadcaster;
  writes: GroupCommit;
  /** A `wakeAt` effect: the room's one pending wake-up. */
  arm(atMs: number | null): void;
  /** A stored snapshot: the room keeps it for the roster refresh. */
  stored(live: LiveSnapshot | null): void;
}

export class StepEffects {
  /**
   * Players with an answer of the current asking not committed yet, by how many: a phone coming
   * back in that window waits for the commit before it is shown its answer as taken.
   */
  private readonly uncommitted = new Map<string, number>();

  constructor(private readonly deps: StepEffectsDeps) {}

  hasUncommitted(playerId: string): boolean {
    return this.uncommitted.has(playerId);
  }

  /**
   * Carries out the effects; a promise only when the step commits (its saveScores, saveAsking or
   * persist): the rest run at once, an answer's step without a promise (task-queue.ts).
   */
  execute(effects: Effect[], autoRotateChanged: boolean | undefined): Promise<void> | undefined {
    return this.executeFrom(effects, autoRotateChanged, 0, undefined, false);
  }

  private executeFrom(effects: Effect[], autoRotateChanged: boolean | undefined, from: number, held: Effect[] | undefined, committed: boolean): Promise<void> | undefined {
    const { broadcaster, sessionId, writes } = this.deps;
    // `held`: acceptances held for their answer's commit. Runs for every answer: no iterator, no copies.
    for (let index = from; index < effects.length; index++) {
      const effect = effects[index];
      switch (effect.kind) {
        case 'broadcast':
          broadcaster.toSession(sessionId, effect.to, effect.message);
          break;
        case 'send':
          if (!held?.includes(effect)) broadcaster.toPlayer(sessionId, effect.playerId, effect.message);
          break;
        case 'reply':
          // A resend's acceptance is a promise too (DESIGN §8): it waits for the first one's commit,
          // outside the queue: phones resend after 1.5 s without a confirmation, and while storage is
          // down (DESIGN §16) awaiting here stopped the room's clock until storage came back.
          if (effect.message.type === 'answer_accepted' && this.uncommitted.size > 0) {
            const { connectionId, message } = effect;
            void writes.flush().then((stored) => stored && broadcaster.toConnection(sessionId, connectionId, message), () => undefined);
          } else broadcaster.toConnection(sessionId, effect.connectionId, effect.message);
          break;
        case 'saveAnswer': {
          const accepted = acceptanceOf(effects, index);
          // An array of one when made: an empty one's first push reserves 16 slots, per answer.
          if (accepted) {
            if (held) held.push(accepted);
            else held = [accepted];
          }
          // The effect is the write (an AnswerWrite and its `kind`): no copy per answer.
          const { playerId } = effect;
          this.uncommitted.set(playerId, (this.uncommitted.get(playerId) ?? 0) + 1);
          writes.addAnswer(effect, () => {
            const left = (this.uncommitted.get(playerId) ?? 1) - 1;
            if (left > 0) this.uncommitted.set(playerId, left);
            else this.uncommitted.delete(playerId);
            if (accepted) broadcaster.toPlayer(sessionId, accepted.playerId, accepted.message);
          });
          break;
        }
        case 'saveAsking': // written with the step's commit: a question start always changes the snapshot
        case 'saveScores':
        case 'persist':
          if (!committed) {
            return this.commitStep(effects, autoRotateChanged).then(() => this.executeFrom(effects, autoRotateChanged, index + 1, held, true));
          }
          break;
        case 'wakeAt':
          this.deps.arm(effect.atMs);
          break;
      }
    }
    return undefined;
  }

  private async commitStep(effects: Effect[], autoRotate: boolean | undefined): Promise<void> {
    const scores = [];
    const askings: NonNullable<StepWrite['askings']> = [];
    let snapshot: SnapshotWrite | undefined;
    for (const effect of effects) {
      if (effect.kind === 'saveScores') scores.push(...effect.scores);
      if (effect.kind === 'saveAsking') askings.push({ asking: effect.asking, questionId: effect.questionId, askedAtMs: effect.atMs });
      if (effect.kind === 'persist') snapshot = { live: effect.live, currentQuestionIndex: effect.currentQuestionIndex };
    }
    if (snapshot) this.deps.stored(snapshot.live);
    await this.deps.writes.commitNow({ scores, askings, snapshot, autoRotate });
  }
}

/** The `answer_accepted` that follows the saveAnswer at `index` for the same player, if any. */
function acceptanceOf(effects: Effect[], index: number): Extract<Effect, { kind: 'send' }> | undefined {
  const save = effects[index];
  if (save.kind !== 'saveAnswer') return undefined;
  for (let i = index + 1; i < effects.length; i++) {
    const e = effects[i];
    if (e.kind === 'send' && e.playerId === save.playerId && e.message.type === 'answer_accepted') return e;
  }
  return undefined;
}

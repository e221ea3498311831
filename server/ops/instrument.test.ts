/**
 * The metrics' wrapper of the room storage: it must pass the instance's listed answers through
 * and count them, and say what the storage it wraps says about fencing (shared-commits.ts lists
 * answers only when unfenced; multi-instance mode fences every write).
 */
import { describe, expect, it } from 'vitest';
import { DbRoomStorage } from '../game/rooms/db-storage.js';
import { SharedCommits } from '../game/rooms/shared-commits.js';
import type { AnswerWrite, CommitBatch, RoomStorage } from '../game/rooms/storage.js';
import type { Store } from '../storage/store.js';
import { instrumentedRoomStorage } from './instrument.js';
import { Metrics } from './metrics.js';

const answer = (sessionId: string, playerId: string): AnswerWrite => ({
  sessionId,
  playerId,
  asking: 1,
  answer: { questionId: 'q1', selectedIndex: 1, isCorrect: false, pointsEarned: 0, elapsedMs: 500, answeredAtMs: 1_000 },
});

describe('instrumentedRoomStorage', () => {
  it('passes the listed answers through with the batches, and counts both as stored answers', async () => {
    const written: { batches: CommitBatch[]; listed: AnswerWrite[] | undefined }[] = [];
    const inner = {
      commit: async () => {},
      commitMany: async (batches: CommitBatch[], listed?: AnswerWrite[]) => {
        written.push({ batches, listed });
      },
    } as unknown as RoomStorage;
    const metrics = new Metrics();
    const storage = instrumentedRoomStorage(inner, metrics);
    const listed = [answer('s1', 'ann'), answer('s2', 'bob')];
    const batches = [{ sessionId: 's3', answers: [answer('s3', 'cid')], scores: [] }];
    await storage.commitMany!(batches, listed);
    expect(written).toEqual([{ batches, listed }]);
    expect((await metrics.answers.get()).values.map((v) => v.value)).toEqual([3]);
  });

  it('says whether the storage it wraps fences its writes, so the shared commits list answers only on one instance', () => {
    // The constructor only keeps its arguments: no database is opened.
    const store = {} as Store;
    const alone = instrumentedRoomStorage(new DbRoomStorage(store), new Metrics());
    const fenced = instrumentedRoomStorage(new DbRoomStorage(store, async () => {}), new Metrics());
    expect([alone.fenced, fenced.fenced]).toEqual([false, true]);
    expect([new SharedCommits(alone).lists, new SharedCommits(fenced).lists]).toEqual([true, false]);
  });
});

/**
 * Lifecycle events made while Redis is unreachable are not lost (events.ts): an admin on one
 * instance renames a session, deletes another and changes a third one's program with Redis
 * killed. The instance where it happened applies them at once; the other one gets them once
 * Redis is back (empty): the rename reaches its screens, the delete closes its sockets with 4410,
 * and the owner there reloads the program. The test runs its own redis-server on a free port;
 * the machine's Redis is never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../../protocol/index.js';
import { TestApi } from '../../testing/api.js';
import type { TestServer } from '../../testing/server.js';
import { type Game, createGame, display } from '../ws/testing/setup.js';
import { waitUntil } from './testing/cluster.js';
import { type OwnRedis, type OwnRedisCluster, startOwnRedisCluster } from './testing/redis-server.js';

describe('lifecycle events while Redis is down (2 instances)', () => {
  let cluster: OwnRedisCluster;
  let servers: TestServer[];
  let redis: OwnRedis;
  let api: TestApi;

  beforeAll(async () => {
    cluster = await startOwnRedisCluster(['e-1', 'e-2']);
    ({ servers, redis } = cluster);
    api = new TestApi(servers[0]);
    await api.login();
  }, 60_000);

  afterAll(() => cluster?.close());

  const fresh = (text: string): Promise<Game> => createGame(servers[0], api, { items: [{ question: { text, correctIndex: 0, timeLimitSeconds: 30 } }], players: 0 });
  const ownedBy = (server: TestServer, game: Game) => server.server.realtime.cluster!.owner.epochOf(game.sessionId) !== undefined;

  it('renames, deletes and program changes made during the outage reach every instance once Redis is back', { timeout: 120_000 }, async () => {
    const [A, B] = servers;
    const renamed = await fresh('Renamed during the outage?');
    const deleted = await fresh('Deleted during the outage?');
    const changed = await fresh('Changed during the outage?');
    const renamedOnA = await display(A, renamed);
    const renamedOnB = await display(B, renamed);
    const deletedOnB = await display(B, deleted);
    await display(B, changed);
    // Only B has sockets of these two, so B owns them (and keeps them through the restart).
    await waitUntil('B owns the sessions only it has sockets of', () => ownedBy(B, deleted) && ownedBy(B, changed));
    const room = B.server.realtime.rooms.get(changed.sessionId)!;
    expect(room.engineState?.program.items).toHaveLength(1);
    let deletedClosedAt: number | null = null;
    void deletedOnB.closed.then(() => (deletedClosedAt = Date.now()));

    await redis.kill();

    // The admin works on A meanwhile.
    const infoOnA = renamedOnA.next('session_info');
    expect((await api.request('PUT', `/api/admin/sessions/${renamed.sessionId}`, { title: 'Renamed while Redis was down' })).status).toBe(200);
    expect((await api.request('DELETE', `/api/admin/sessions/${deleted.sessionId}`)).status).toBe(204);
    const q = await api.post('/api/admin/questions', { text: 'Added while Redis was down', choices: ['a', 'b', 'c', 'd'], correctIndex: 1, points: 100, timeLimitSeconds: 10, categories: [] });
    expect((await api.post(`/api/admin/sessions/${changed.sessionId}/questions`, { questionId: q.body.id })).status).toBe(201);
    // A's own screens have the change at once; B cannot have heard of any of it.
    expect((await infoOnA).session).toMatchObject({ title: 'Renamed while Redis was down' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(renamedOnB.messages.some((m) => m.type === 'session_info')).toBe(false);
    expect(deletedClosedAt).toBeNull();
    expect(room.engineState?.program.items).toHaveLength(1);

    const backAt = Date.now();
    await redis.restart();

    const infoOnB = await renamedOnB.waitFor((m) => m.type === 'session_info', { timeoutMs: 30_000 });
    expect(infoOnB.session).toMatchObject({ title: 'Renamed while Redis was down' });
    expect((await deletedOnB.closed).code).toBe(CLOSE_CODES.sessionGone);
    expect(deletedClosedAt).toBeGreaterThanOrEqual(backAt);
    await waitUntil('the owner on B reloaded the program', () => room.engineState?.program.items.length === 2, 30_000);
    renamedOnA.close();
    renamedOnB.close();
  });
});

/**
 * The operator's Live now across instances (DESIGN §18): a game started through one instance and
 * run by another is on every instance's overview as soon as its owner runs it, not a publish period
 * later (until then it read "down", a red badge on a game that had just started well).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../protocol/index.js';
import { TestApi } from '../../testing/api.js';
import { type Game, createGame } from '../ws/testing/setup.js';
import { type TestCluster, startTestCluster, waitUntil } from './testing/cluster.js';

/** Longer than the test waits: only the publish at taking a game up can show it elsewhere. */
const PUBLISH_PERIOD_MS = 120_000;

describe('Live now on a cluster (PostgreSQL, real Redis)', () => {
  let cluster: TestCluster;
  const apis: TestApi[] = [];
  let game: Game;

  beforeAll(async () => {
    cluster = await startTestCluster(2, undefined, {}, { livePublishMs: PUBLISH_PERIOD_MS });
    for (const server of cluster.servers) {
      const api = new TestApi(server);
      await api.login();
      apis.push(api);
    }
    game = await createGame(cluster.servers[0], apis[0], { items: [{ question: { text: 'Which cinema opened first?', correctIndex: 0, timeLimitSeconds: 60 } }], players: 1 });
  });
  afterAll(() => cluster?.close());

  const gameOn = async (api: TestApi) => ((await api.get('/api/admin/live')).body as LiveGame[]).find((g) => g.sessionId === game.sessionId);

  it('shows a game started through one instance on every instance as soon as its owner runs it', async () => {
    expect((await apis[0].post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBe(200);
    await waitUntil('an instance owns the game', () => cluster.ownersOf(game.sessionId).length === 1);
    const other = cluster.servers.indexOf(cluster.servers.find((s) => !cluster.ownersOf(game.sessionId).includes(s))!);
    // The instance that does not run it reads the owner's entry: the game is running there.
    await waitUntil('the other instance shows the game running', async () => (await gameOn(apis[other]))?.health !== 'down');
    expect(await gameOn(apis[other])).toMatchObject({ status: 'live', item: 'question', questionNumber: 1, questions: 1 });
  });
});

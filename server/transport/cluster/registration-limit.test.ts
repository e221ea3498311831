/**
 * The per-address registration limit across instances (DESIGN §15): a client whose joins a
 * balancer spreads over two instances gets one burst in all, not one per instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_MESSAGE } from '../../domain/players/registration.js';
import { TestApi } from '../../testing/api.js';
import { type TestCluster, startTestCluster } from './testing/cluster.js';

describe('registrations per address across 2 instances', () => {
  let cluster: TestCluster;
  let apis: TestApi[];

  beforeAll(async () => {
    // A small burst and a slow refill: the test reaches the limit without registering 100.
    cluster = await startTestCluster(2, undefined, { REGISTRATION_LIMIT: '4,0.01' });
    apis = cluster.servers.map((server) => new TestApi(server));
    await apis[0].login();
  });
  afterAll(() => cluster?.close());

  it('stops at the burst when joins from one address alternate between instances', async () => {
    const session = (await apis[0].post('/api/admin/sessions', { title: 'Round robin' })).body;
    const register = (i: number, address: string) =>
      apis[i % 2].request('POST', '/api/player/register', { sessionId: session.id, name: `Bot ${i}`, email: `bot${i}@example.com` }, { 'x-forwarded-for': address });

    // A returning email refused on one instance gives its slot back for the other.
    expect((await register(0, '198.51.100.20')).status).toBe(201);
    const taken = await apis[1].request('POST', '/api/player/register', { sessionId: session.id, name: 'Again', email: 'bot0@example.com' }, { 'x-forwarded-for': '198.51.100.20' });
    expect(taken.status).toBe(409);

    const statuses: number[] = [];
    for (let i = 1; i < 6; i++) statuses.push((await register(i, '198.51.100.20')).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const limited = await register(6, '198.51.100.20');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: TOO_MANY_MESSAGE });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address is not slowed, on either instance.
    expect((await register(7, '198.51.100.21')).status).toBe(201);
    expect((await register(8, '198.51.100.21')).status).toBe(201);
  });
});

import { describe, expect, it } from 'vitest';
import { PlayerRoutes } from './routes.js';

const instancesOf = (routes: PlayerRoutes, playerId: string) => {
  const found = routes.instancesOf(playerId);
  return found ? [...found].sort() : undefined;
};

describe('player routes (which instances hold a player’s sockets)', () => {
  it('names the instance of each socket, once per instance, until the last socket there leaves', () => {
    const routes = new PlayerRoutes();
    expect(instancesOf(routes, 'p1')).toBeUndefined();
    routes.add('node-1/a', 'p1');
    routes.add('node-1/b', 'p1'); // a second tab on the same instance
    routes.add('node-2/c', 'p1'); // and one on another
    routes.add('node-2/d', 'p2');
    expect(instancesOf(routes, 'p1')).toEqual(['node-1', 'node-2']);
    expect(instancesOf(routes, 'p2')).toEqual(['node-2']);
    routes.remove('node-1/a');
    expect(instancesOf(routes, 'p1')).toEqual(['node-1', 'node-2']);
    routes.remove('node-1/b');
    expect(instancesOf(routes, 'p1')).toEqual(['node-2']);
    routes.remove('node-2/c');
    expect(instancesOf(routes, 'p1')).toBeUndefined();
    expect(instancesOf(routes, 'p2')).toEqual(['node-2']);
  });

  it('a reconnect to another instance moves the route, whichever entry the owner reads first', () => {
    const dropFirst = new PlayerRoutes();
    dropFirst.add('node-1/a', 'p1');
    dropFirst.remove('node-1/a');
    dropFirst.add('node-3/b', 'p1');
    expect(instancesOf(dropFirst, 'p1')).toEqual(['node-3']);

    // The new socket's connect can reach the owner before the old one's disconnect.
    const joinFirst = new PlayerRoutes();
    joinFirst.add('node-1/a', 'p1');
    joinFirst.add('node-3/b', 'p1');
    expect(instancesOf(joinFirst, 'p1')).toEqual(['node-1', 'node-3']);
    joinFirst.remove('node-1/a');
    expect(instancesOf(joinFirst, 'p1')).toEqual(['node-3']);
  });

  it('announcing a socket again (a new owner, Redis back) counts it once; unknown removals change nothing', () => {
    const routes = new PlayerRoutes();
    routes.add('node-1/a', 'p1');
    routes.add('node-1/a', 'p1');
    routes.remove('node-9/zz');
    routes.remove('node-1/a');
    expect(instancesOf(routes, 'p1')).toBeUndefined();
    routes.remove('node-1/a');
    expect(instancesOf(routes, 'p1')).toBeUndefined();
  });
});

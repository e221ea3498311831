/**
 * An instance whose key is gone is taken for dead only while that may be (not in a Redis outage or
 * just after it, owner.ts): asked again after the reads, since a read in flight when Redis went
 * away is resent when it comes back and finds every other instance's key lapsed
 * (redis-cut-owner.test.ts failed now and then this way).
 */
import { describe, expect, it, vi } from 'vitest';
import { dropDeadMembers, type UpkeepOwner } from './owner-upkeep.js';

function ownerWithMemberOf(other: string, exists: () => Promise<number>) {
  let mayTakeForDead = true;
  const members = new Map([[`${other}/socket-1`, { role: 'player' }]]);
  const disconnect = vi.fn(async () => undefined);
  const owner = {
    deps: { redis: { exists: vi.fn(exists) }, keys: { instance: (id: string) => `instance:${id}` }, instanceId: 'here' },
    owned: new Map([['session-1', { members, routes: { remove: vi.fn() }, room: { disconnect } }]]),
    mayTakeForDead: () => mayTakeForDead,
  } as unknown as UpkeepOwner;
  return { owner, members, disconnect, outage: () => (mayTakeForDead = false) };
}

describe('dropping the sockets of a dead instance', () => {
  it('drops them when the instance’s key is gone', async () => {
    const { owner, members, disconnect } = ownerWithMemberOf('there', async () => 0);
    await dropDeadMembers(owner);
    expect(members.size).toBe(0);
    expect(disconnect).toHaveBeenCalledWith('there/socket-1');
  });

  it('keeps them when Redis went away while the key was read', async () => {
    const { owner, members, disconnect, outage } = ownerWithMemberOf('there', async () => {
      outage(); // the read waits out the cut and is answered after it, with the lapsed key
      return 0;
    });
    await dropDeadMembers(owner);
    expect(members.size).toBe(1);
    expect(disconnect).not.toHaveBeenCalled();
  });
});

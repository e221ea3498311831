import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../../protocol/index.js';
import { type Client, Hub, newClient } from './hub.js';
import { startLinkProbes } from './link-probe.js';

/** A phone's socket stand-in that records the payloads of the pings it was sent. */
function phone(id: string, sessionId: string): Client & { pings: string[] } {
  const pings: string[] = [];
  const socket = { readyState: WebSocket.OPEN, send: () => undefined, ping: (data: string) => pings.push(data) } as unknown as WebSocket;
  return { ...newClient(id, sessionId, 'player', id, socket, Date.now()), pings };
}

// Only the fields the hub reads of a state: its phase and the question's id.
const lobby = { type: 'session_state', phase: 'lobby', question: null } as unknown as ServerMessage;
const question = { type: 'session_state', phase: 'question', question: { id: 'q1' } } as unknown as ServerMessage;

describe('link probes', () => {
  afterEach(() => vi.useRealTimers());

  it('probe phones while a question is open, not between questions', () => {
    vi.useFakeTimers();
    const hub = new Hub();
    const waiting = phone('ann', 's1');
    const playing = phone('bob', 's2');
    hub.add(waiting);
    hub.add(playing);
    hub.toSession('s1', 'all', lobby);
    hub.toSession('s2', 'all', question);
    // The ping behind the question left with it.
    expect(playing.pings).toHaveLength(1);
    expect(playing.pings[0]).toMatch(/^q/);
    playing.link.onPong(playing.pings[0], Date.now());

    const stop = startLinkProbes(hub, 2_000);
    vi.advanceTimersByTime(30_000);
    expect(waiting.pings).toEqual([]);
    // The question's ping counts as a probe; then one probe at a time, about every interval.
    const probes = playing.pings.slice(1);
    expect(probes.length).toBeGreaterThanOrEqual(1);
    expect(probes.every((p) => p.startsWith('p'))).toBe(true);
    for (const p of probes) playing.link.onPong(p, Date.now());

    // The question ends: no more probes for that session; a new one opens in the other: they start.
    hub.toSession('s2', 'all', lobby);
    hub.toSession('s1', 'all', question);
    const before = playing.pings.length;
    waiting.link.onPong(waiting.pings[0], Date.now());
    vi.advanceTimersByTime(30_000);
    expect(playing.pings).toHaveLength(before);
    expect(waiting.pings.filter((p) => p.startsWith('p')).length).toBeGreaterThanOrEqual(1);
    stop();
  });

  it('stop probing a session once its question ends: the reveal credits nothing', () => {
    vi.useFakeTimers();
    const hub = new Hub();
    const bob = phone('bob', 's1');
    hub.add(bob);
    hub.toSession('s1', 'all', question);
    bob.link.onPong(bob.pings[0], Date.now());
    const stop = startLinkProbes(hub, 2_000);
    vi.advanceTimersByTime(4_000);
    for (const p of bob.pings.slice(1)) bob.link.onPong(p, Date.now());
    const during = bob.pings.length;
    expect(during).toBeGreaterThan(1);
    // The reveal begins with question_end; players get no state of their own for it.
    hub.toSession('s1', 'all', { type: 'question_end', questionId: 'q1', correctIndex: 0, distribution: [1, 0, 0, 0] });
    vi.advanceTimersByTime(30_000);
    expect(bob.pings).toHaveLength(during);
    stop();
  });

  it('a probe due goes along with a broadcast the phone gets anyway, not in a write of its own', () => {
    vi.useFakeTimers();
    const hub = new Hub({ probeIntervalMs: 2_000 });
    const ann = phone('ann', 's1');
    const writes: string[] = [];
    ann.socket.send = (() => writes.push('frame')) as never;
    ann.socket.ping = ((data: string) => {
      ann.pings.push(data);
      writes.push(`ping ${data[0]}`);
    }) as never;
    hub.add(ann);
    hub.toSession('s1', 'all', question);
    ann.link.onPong(ann.pings[0], Date.now());
    const stop = startLinkProbes(hub, 2_000);
    const tick = { type: 'timer_tick', questionId: 'q1', timeRemaining: 9, serverTime: 1, endsAt: 2 } as ServerMessage;
    for (let second = 0; second < 6; second++) {
      vi.advanceTimersByTime(1_000);
      hub.toSession('s1', 'all', tick);
    }
    // Every probe right behind a tick (its frame, then the ping): the timer had none to send.
    expect(writes.filter((w) => w === 'ping p').length).toBeGreaterThanOrEqual(1);
    writes.forEach((w, i) => w === 'ping p' && expect(writes[i - 1]).toBe('frame'));
    stop();
  });
});

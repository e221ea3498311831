import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { ERROR_CODES, errorMessage, type ServerMessage } from '../../../protocol/index.js';
import { type Client, Hub, newClient } from './hub.js';

/** A socket stand-in that records what it was given. */
function fakeClient(id: string, role: Client['role'], playerId: string | null = null, sessionId = 's1'): Client & { sent: unknown[] } {
  const sent: unknown[] = [];
  const socket = { readyState: WebSocket.OPEN, send: (data: unknown) => sent.push(data), ping: () => undefined } as unknown as WebSocket;
  return { ...newClient(id, sessionId, role, playerId, socket, 0), sent };
}

const tick: ServerMessage = { type: 'timer_tick', questionId: 'q1', timeRemaining: 9, serverTime: 1, endsAt: 2 };

describe('Hub fan-out', () => {
  afterEach(() => vi.restoreAllMocks());

  it('serializes a broadcast once and hands the same buffer to every socket of the target', () => {
    const hub = new Hub();
    const admin = fakeClient('a', 'admin');
    const displays = [fakeClient('d1', 'display'), fakeClient('d2', 'display')];
    const players = [fakeClient('p1', 'player', 'ann'), fakeClient('p2', 'player', 'bob'), fakeClient('p3', 'player', 'cy')];
    const elsewhere = fakeClient('x', 'display', null, 's2');
    for (const c of [admin, ...displays, ...players, elsewhere]) hub.add(c);

    const stringify = vi.spyOn(JSON, 'stringify');
    hub.toSession('s1', 'audience', tick);
    expect(stringify).toHaveBeenCalledTimes(1);
    const frame = displays[0].sent[0];
    expect(Buffer.isBuffer(frame)).toBe(true);
    for (const c of [...displays, ...players]) {
      expect(c.sent).toHaveLength(1);
      expect(c.sent[0]).toBe(frame); // the very same Buffer, not an equal copy
    }
    expect(admin.sent).toEqual([]);
    expect(elsewhere.sent).toEqual([]);
    expect(JSON.parse(String(frame))).toEqual(tick);

    hub.toSession('s1', 'admins', tick);
    hub.toSession('s1', 'all', tick);
    expect(admin.sent).toHaveLength(2);
    expect(players[0].sent).toHaveLength(2);
    expect(stringify).toHaveBeenCalledTimes(3);
  });

  it('reaches every socket of one player, and one connection by id', () => {
    const hub = new Hub();
    const phone = fakeClient('p1', 'player', 'ann');
    const tablet = fakeClient('p2', 'player', 'ann');
    const other = fakeClient('p3', 'player', 'bob');
    for (const c of [phone, tablet, other]) hub.add(c);
    hub.toPlayer('s1', 'ann', tick);
    expect([phone.sent.length, tablet.sent.length, other.sent.length]).toEqual([1, 1, 0]);
    hub.toConnection('s1', 'p3', tick);
    expect(other.sent).toHaveLength(1);

    hub.remove(phone);
    hub.toPlayer('s1', 'ann', tick);
    expect([phone.sent.length, tablet.sent.length]).toEqual([1, 2]);
    expect(hub.countFor('s1')).toEqual({ admins: 0, displays: 0, players: 2 });
  });

  it('corks a socket for the rest of the step, so the frames of one step leave in one write', async () => {
    const hub = new Hub();
    const phone = fakeClient('p1', 'player', 'ann');
    const writes: string[] = [];
    const tcp = {
      writableCorked: 0,
      cork: () => void (tcp.writableCorked++, writes.push('cork')),
      uncork: () => void (tcp.writableCorked--, writes.push('uncork')),
      write: () => void writes.push('frame'), // frames go to the TCP socket as they are
    };
    Object.assign(phone.socket, { _socket: tcp });
    hub.add(phone);

    // A question's end: the player's result, then the broadcasts.
    hub.toPlayer('s1', 'ann', tick);
    hub.toSession('s1', 'players', tick);
    hub.toSession('s1', 'audience', tick);
    expect(phone.sent).toHaveLength(0); // every frame went to the TCP socket
    expect(writes).toEqual(['cork', 'frame', 'frame', 'frame']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['cork', 'frame', 'frame', 'frame', 'uncork']);
    expect(tcp.writableCorked).toBe(0);

    hub.toPlayer('s1', 'ann', tick); // the next step corks again
    expect(writes).toEqual(['cork', 'frame', 'frame', 'frame', 'uncork', 'cork', 'frame']);
  });

  it('closes a socket after the frames of the same step: a kicked phone reads its last message, then the close', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await new Promise((resolve) => wss.once('listening', resolve));
    const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
    const phone = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const seen: string[] = [];
    phone.on('message', (data) => seen.push(JSON.parse(String(data)).type));
    const closed = new Promise<void>((resolve) => phone.on('close', (code) => (seen.push(`closed ${code}`), resolve())));
    const hub = new Hub();
    hub.add(newClient('c1', 's1', 'player', 'zoe', await accepted, 0));
    hub.toPlayer('s1', 'zoe', tick);
    hub.toSession('s1', 'players', tick);
    hub.closePlayer('s1', 'zoe', 4403, 'Removed by the host'); // in the same step
    await closed;
    expect(seen).toEqual(['timer_tick', 'timer_tick', 'closed 4403']);
    await new Promise((resolve) => wss.close(resolve));
  });

  it('delivers a player’s own messages (handed to ws as strings) intact as text frames, non-ASCII too', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await new Promise((resolve) => wss.once('listening', resolve));
    const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
    const phone = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const frames: { text: string; binary: boolean }[] = [];
    phone.on('message', (data, isBinary) => frames.push({ text: String(data), binary: isBinary }));
    const hub = new Hub();
    const client = newClient('c1', 's1', 'player', 'zoe', await accepted, 0);
    hub.add(client);
    const reply: ServerMessage = errorMessage(ERROR_CODES.invalidMessage, 'Zoë’s answer — “🎬” is not a choice');
    hub.toPlayer('s1', 'zoe', tick);
    hub.toConnection('s1', 'c1', reply);
    hub.toSession('s1', 'players', tick);
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    expect(frames.map((f) => f.binary)).toEqual([false, false, false]);
    expect(frames.map((f) => JSON.parse(f.text))).toEqual([tick, reply, tick]);
    phone.close();
    await new Promise((resolve) => wss.close(resolve));
  });

  it("frames a broadcast once for every socket: short, medium and 64 KiB+ payloads arrive intact as text, in order with pings (a question and its ping in one write) and own messages", async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await new Promise((resolve) => wss.once('listening', resolve));
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const hub = new Hub();
    const phones: WebSocket[] = [];
    const received: { text: string; binary: boolean }[][] = [];
    const pings: string[][] = [[], []];
    // Both kinds of frame, in the order each phone read them.
    const order: string[][] = [[], []];
    const writes: number[] = [0, 0];
    for (let i = 0; i < 2; i++) {
      const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
      const phone = new WebSocket(url);
      const frames: { text: string; binary: boolean }[] = [];
      phone.on('message', (data, isBinary) => {
        frames.push({ text: String(data), binary: isBinary });
        order[i].push(`message ${(JSON.parse(String(data)) as ServerMessage).type}`);
      });
      phone.on('ping', (data) => {
        pings[i].push(String(data));
        order[i].push('ping');
      });
      await new Promise((resolve) => phone.once('open', resolve));
      phones.push(phone);
      received.push(frames);
      const server = await accepted;
      hub.add(newClient(`c${i}`, 's1', 'player', `p${i}`, server, 0));
      // The chunks handed to the TCP socket (writes corked in one turn leave together).
      const tcp = (server as unknown as { _socket: { write: (...args: unknown[]) => boolean } })._socket;
      const write = tcp.write.bind(tcp);
      tcp.write = (...args: unknown[]) => {
        writes[i]++;
        return write(...args);
      };
    }
    const sized = (chars: number): ServerMessage => errorMessage(ERROR_CODES.invalidMessage, 'é'.repeat(chars));
    const messages = [tick, sized(40), sized(200), sized(40_000), sized(70_000)];
    hub.toSession('s1', 'players', messages[0]);
    hub.toPlayer('s1', 'p0', messages[1]);
    for (const message of messages.slice(2)) hub.toSession('s1', 'players', message);
    for (const client of hub.all()) client.socket.ping('heartbeat');
    // A question's state: the ping behind it is framed once for both phones too, and joined to it.
    const question = { type: 'session_state', phase: 'question', question: { id: 'q1' } } as unknown as ServerMessage;
    const writesBefore = [...writes];
    hub.toSession('s1', 'players', question);
    expect(writes.map((n, i) => n - writesBefore[i])).toEqual([1, 1]);
    await vi.waitFor(() => expect(received[1]).toHaveLength(5));
    await vi.waitFor(() => expect(received[0]).toHaveLength(6));
    await vi.waitFor(() => expect(pings[0]).toHaveLength(2));
    await vi.waitFor(() => expect(pings[1]).toHaveLength(2));
    expect(received[0].map((f) => JSON.parse(f.text))).toEqual([...messages, question]);
    expect(received[1].map((f) => JSON.parse(f.text))).toEqual([messages[0], ...messages.slice(2), question]);
    for (const own of pings) {
      expect(own[0]).toBe('heartbeat');
      expect(own[1]).toMatch(/^q\d+$/);
    }
    expect(pings[0][1]).toBe(pings[1][1]);
    // Its pong cannot come back before the question arrived (link-delay.ts).
    for (const seen of order) expect(seen.slice(-2)).toEqual(['message session_state', 'ping']);
    expect(received.flat().every((f) => !f.binary)).toBe(true);
    for (const phone of phones) phone.close();
    await new Promise((resolve) => wss.close(resolve));
  });

  it('skips sockets that are not open', () => {
    const hub = new Hub();
    const closing = fakeClient('d1', 'display');
    (closing.socket as { readyState: number }).readyState = WebSocket.CLOSING;
    hub.add(closing);
    hub.toSession('s1', 'displays', tick);
    expect(closing.sent).toEqual([]);
  });
});

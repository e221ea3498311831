/**
 * Run inside a namespace of ours by bench/netns.test.ts: starts the packet shaper with two test
 * profiles and times TCP connections through it. Prints one JSON line.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { PacketShaper } from './netns.js';
import type { NetworkProfile } from './shaper.js';

const DELAYED: NetworkProfile = { name: 'delayed', oneWayMs: 150, jitterMs: 0, loss: 0, signalLossMs: 0 };
const DEAD: NetworkProfile = { name: 'dead', oneWayMs: 0, jitterMs: 0, loss: 1, signalLossMs: 0 };

/** ms until a connection from `localAddress` is up, or null if none within `timeoutMs`. */
function connectMs(port: number, localAddress: string, timeoutMs: number): Promise<number | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, timeoutMs);
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(performance.now() - started);
    });
  });
}

const shaper = await PacketShaper.start([DELAYED, DEAD], { seed: 1 });
const server = net.createServer((socket) => socket.on('error', () => undefined).destroy());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as net.AddressInfo;
const delayed = shaper.link(DELAYED);
const plainMs = await connectMs(port, '127.0.0.1', 3_000);
const afterPlain = await shaper.counts();
const delayedMs = await connectMs(port, delayed.localAddress, 3_000);
const deadMs = await connectMs(port, shaper.link(DEAD).localAddress, 1_500);
delayed.cutOff(600); // the first SYN is dropped: TCP resends it a second later
const cutMs = await connectMs(port, delayed.localAddress, 5_000);
server.close();
const counts = await shaper.stop();
console.log(JSON.stringify({ plainMs, plainPackets: afterPlain.passed + afterPlain.dropped, delayedMs, deadMs, cutMs, ...counts }));

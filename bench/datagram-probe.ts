/**
 * `DATACHANNEL_DIR=<dir> npx tsx bench/datagram-probe.ts [trials]`: would a datagram path get a
 * basement phone's pick (and the server's question) through sooner after a loss of signal than
 * TCP does? Issue 24's remaining losses are TCP's: a pick waits behind a backed-off resend, or for
 * a new connection's handshake (docs/PERFORMANCE.md, "Session 35").
 *
 * Not part of the product or of `npm run bench`: the WebRTC library is not a dependency of
 * Marquee. Install it beside the project first (`npm install --prefix /tmp/dcprobe
 * node-datachannel@0.33.4`, prebuilt for Linux on the npm registry) and name that folder in
 * DATACHANNEL_DIR.
 *
 * One basement phone address in the networks bench's namespace (bench/netns.ts, needs root), and
 * three links to a "server" on 127.0.0.1, each carrying a small message every 250 ms both ways:
 * a TCP socket; a WebRTC data channel, unordered without retransmissions (a datagram: the sender
 * repeats it instead); a reliable, ordered data channel. Each trial cuts the phone's signal for
 * 4 s; the figure is how long after the signal came back the first message arrived, each way.
 * Both WebRTC ends are libdatachannel here; a browser's own SCTP may differ.
 */
import net from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NAMESPACE_VARIABLE, PacketShaper, runInNamespace } from './netns.js';
import { PROFILES } from './shaper.js';
import { sleep } from './wait.js';

/** The little of node-datachannel used here. */
interface DataChannel {
  onOpen(callback: () => void): void;
  onMessage(callback: (message: string) => void): void;
  sendMessage(message: string): boolean;
  isOpen(): boolean;
}
interface PeerConnection {
  onLocalDescription(callback: (sdp: string, type: string) => void): void;
  onLocalCandidate(callback: (candidate: string, mid: string) => void): void;
  onDataChannel(callback: (channel: DataChannel) => void): void;
  setRemoteDescription(sdp: string, type: string): void;
  addRemoteCandidate(candidate: string, mid: string): void;
  createDataChannel(label: string, init?: { unordered?: boolean; maxRetransmits?: number }): DataChannel;
  close(): void;
}
interface NodeDataChannel {
  PeerConnection: new (name: string, config: { iceServers: string[]; bindAddress?: string }) => PeerConnection;
  cleanup(): void;
}

const CUT_MS = 4_000;
const SEND_EVERY_MS = 250;
const LINKS = ['tcp', 'datagram', 'reliable'] as const;
type LinkName = (typeof LINKS)[number];

interface Ends {
  /** Sends one message each way. */
  send(message: string): void;
  /** Arrival times at the server (up) and at the phone (down). */
  up: number[];
  down: number[];
  close(): void;
}

async function dataChannelLink(nd: NodeDataChannel, phoneAddress: string, label: string, init: { unordered?: boolean; maxRetransmits?: number }): Promise<Ends> {
  const server = new nd.PeerConnection(`server-${label}`, { iceServers: [], bindAddress: '127.0.0.1' });
  const phone = new nd.PeerConnection(`phone-${label}`, { iceServers: [], bindAddress: phoneAddress });
  // Signalling in-process (the product would carry it on the phone's socket).
  server.onLocalDescription((sdp, type) => phone.setRemoteDescription(sdp, type));
  server.onLocalCandidate((candidate, mid) => phone.addRemoteCandidate(candidate, mid));
  phone.onLocalDescription((sdp, type) => server.setRemoteDescription(sdp, type));
  phone.onLocalCandidate((candidate, mid) => server.addRemoteCandidate(candidate, mid));
  const ends: Ends = { up: [], down: [], send: () => undefined, close: () => (phone.close(), server.close()) };
  let serverChannel: DataChannel | null = null;
  server.onDataChannel((channel) => {
    serverChannel = channel;
    channel.onMessage(() => ends.up.push(Date.now()));
  });
  const phoneChannel = phone.createDataChannel(label, init);
  phoneChannel.onMessage(() => ends.down.push(Date.now()));
  await new Promise<void>((resolve, reject) => {
    phoneChannel.onOpen(resolve);
    setTimeout(() => reject(new Error(`${label}: the data channel did not open`)), 20_000);
  });
  ends.send = (message) => {
    if (phoneChannel.isOpen()) phoneChannel.sendMessage(message);
    const channel = serverChannel as DataChannel | null;
    if (channel?.isOpen()) channel.sendMessage(message);
  };
  return ends;
}

async function tcpLink(phoneAddress: string): Promise<Ends> {
  let serverSocket: net.Socket | null = null;
  const ends: Ends = { up: [], down: [], send: () => undefined, close: () => undefined };
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    serverSocket = socket;
    socket.on('data', () => ends.up.push(Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const phone = net.connect({ host: '127.0.0.1', port: (server.address() as net.AddressInfo).port, localAddress: phoneAddress });
  phone.setNoDelay(true);
  phone.on('data', () => ends.down.push(Date.now()));
  await new Promise<void>((resolve) => phone.once('connect', resolve));
  ends.send = (message) => {
    phone.write(message);
    (serverSocket as net.Socket | null)?.write(message);
  };
  ends.close = () => {
    phone.destroy();
    server.close();
  };
  return ends;
}

async function probe(trials: number): Promise<void> {
  const dir = process.env.DATACHANNEL_DIR;
  if (!dir) throw new Error('DATACHANNEL_DIR: the folder node-datachannel was installed in (see the top of this file)');
  const nd = createRequire(path.join(path.resolve(dir), 'noop.js'))('node-datachannel') as NodeDataChannel;
  const shaper = await PacketShaper.start(PROFILES, { seed: 35 });
  const basement = PROFILES.find((p) => p.name === 'basement')!;
  const link = shaper.link(basement);
  const phoneAddress = link.localAddress;
  const links: Record<LinkName, Ends> = {
    tcp: await tcpLink(phoneAddress),
    datagram: await dataChannelLink(nd, phoneAddress, 'datagram', { unordered: true, maxRetransmits: 0 }),
    reliable: await dataChannelLink(nd, phoneAddress, 'reliable', {}),
  };
  await sleep(3_000);
  const ticker = setInterval(() => {
    const message = JSON.stringify({ sentAt: Date.now() });
    for (const name of LINKS) links[name].send(message);
  }, SEND_EVERY_MS);
  const firsts = new Map<string, number[]>();
  for (let trial = 1; trial <= trials; trial++) {
    await sleep(2_000 + Math.random() * 2_000);
    link.cutOff(CUT_MS);
    const backAtMs = Date.now() + CUT_MS;
    await sleep(CUT_MS + 9_000);
    const row: string[] = [];
    for (const name of LINKS) {
      for (const way of ['up', 'down'] as const) {
        const first = links[name][way].find((t) => t >= backAtMs);
        const ms = first === undefined ? Number.NaN : first - backAtMs;
        const key = `${name} ${way}`;
        firsts.set(key, [...(firsts.get(key) ?? []), ms]);
        row.push(`${key} ${ms}`);
      }
    }
    console.log(`trial ${trial}: ${row.join(', ')}`);
  }
  clearInterval(ticker);
  console.log('\nfirst message after the signal is back (ms), basement (400 ± 150 ms one way, 5 % loss), one every 250 ms');
  console.log('| link | way | median | max | trials with nothing after the cut |\n|---|---|--:|--:|--:|');
  for (const [key, values] of firsts) {
    const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
    const [name, way] = key.split(' ');
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : '–';
    console.log(`| ${name} | ${way === 'up' ? 'phone → server' : 'server → phone'} | ${median} | ${sorted.at(-1) ?? '–'} | ${values.length - sorted.length} |`);
  }
  for (const name of LINKS) links[name].close();
  await shaper.stop();
  nd.cleanup();
}

if (!process.env[NAMESPACE_VARIABLE]) process.exit((await runInNamespace()).code);
await probe(Number(process.argv[2] ?? 12));
process.exit(0);

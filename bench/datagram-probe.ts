/**
 * `npx tsx bench/datagram-probe.ts [trials] [--browser] [--size BYTES] | --patterns [trials] | --scale N`: would a datagram path get a
 * basement phone's pick (and the server's question) through sooner after a loss of signal than
 * TCP does? Issue 24's remaining losses are TCP's: a pick waits behind a backed-off resend, or for
 * a new connection's handshake (docs/PERFORMANCE.md, "Session 35").
 *
 * Not part of `npm run bench`: session 35's measurement that led to the datagram path (now in the
 * product, with the same library, node-datachannel), kept to measure the path's cost (`--scale`).
 *
 * One basement phone address in the networks bench's namespace (bench/netns.ts, needs root), and
 * three links to a "server" on 127.0.0.1, each carrying a small message every 250 ms both ways:
 * a TCP socket; a WebRTC data channel, unordered without retransmissions (a datagram: the sender
 * repeats it instead); a reliable, ordered data channel. Each trial cuts the phone's signal for
 * 4 s; the figure is how long after the signal came back the first message arrived, each way.
 * Both WebRTC ends are libdatachannel there. `--browser` makes the phone end Debian's Chromium
 * (its own SCTP) on the datagram channel alone: Chromium gathers no loopback candidates, so its
 * packets reach the server from the address of the route (peer-reflexive), which this mode points
 * at the phone's (127/8 kept local by a route, lo's own address moved to the phone's).
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { NAMESPACE_VARIABLE, PacketShaper, runInNamespace } from './netns.js';
import { PROFILES } from './shaper.js';
import { sleep } from './wait.js';
import { launchBrowser } from '../e2e/support/browser.js';

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
type LinkName = 'tcp' | 'datagram' | 'reliable';

interface Ends {
  /** Sends one message each way. */
  send(message: string): void;
  /** Arrival times at the server (up) and at the phone (down). */
  up: number[];
  down: number[];
  close(): void;
}

/** Two peers in this process signal to each other directly (the product would carry it on the phone's socket). */
function signalEachOther(a: PeerConnection, b: PeerConnection): void {
  for (const [from, to] of [[a, b], [b, a]]) {
    from.onLocalDescription((sdp, type) => to.setRemoteDescription(sdp, type));
    from.onLocalCandidate((candidate, mid) => to.addRemoteCandidate(candidate, mid));
  }
}

/** A server end on 127.0.0.1 and a phone end on `phoneAddress`, signalled to each other. */
function peerPair(nd: NodeDataChannel, phoneAddress: string, label: string): { server: PeerConnection; phone: PeerConnection } {
  const server = new nd.PeerConnection(`server-${label}`, { iceServers: [], bindAddress: '127.0.0.1' });
  const phone = new nd.PeerConnection(`phone-${label}`, { iceServers: [], bindAddress: phoneAddress });
  signalEachOther(server, phone);
  return { server, phone };
}

function opened(channel: DataChannel, label: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    channel.onOpen(resolve);
    setTimeout(() => reject(new Error(`${label}: the data channel did not open`)), 20_000);
  });
}

/** When the first of `arrivals` came after `backAtMs`, in ms after it; NaN when none did. */
function firstAfter(arrivals: number[], backAtMs: number): number {
  const first = arrivals.find((t) => t >= backAtMs);
  return first === undefined ? Number.NaN : first - backAtMs;
}

/** Median, max and how many trials brought nothing, for the summary tables. */
function summary(values: number[]): string {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : '–';
  return `${median} | ${sorted.at(-1) ?? '–'} | ${values.length - sorted.length}`;
}

async function dataChannelLink(nd: NodeDataChannel, phoneAddress: string, label: string, init: { unordered?: boolean; maxRetransmits?: number }): Promise<Ends> {
  const { server, phone } = peerPair(nd, phoneAddress, label);
  const ends: Ends = { up: [], down: [], send: () => undefined, close: () => (phone.close(), server.close()) };
  let serverChannel: DataChannel | null = null;
  server.onDataChannel((channel) => {
    serverChannel = channel;
    channel.onMessage(() => ends.up.push(Date.now()));
  });
  const phoneChannel = phone.createDataChannel(label, init);
  phoneChannel.onMessage(() => ends.down.push(Date.now()));
  await opened(phoneChannel, label);
  ends.send = (message) => {
    if (phoneChannel.isOpen()) phoneChannel.sendMessage(message);
    const channel = serverChannel as DataChannel | null;
    if (channel?.isOpen()) channel.sendMessage(message);
  };
  return ends;
}

/** The datagram channel with Chromium as the phone (see the top of the file for the routing). */
async function browserLink(nd: NodeDataChannel, phoneAddress: string, padding: number): Promise<Ends> {
  execFileSync('ip', ['addr', 'del', '127.0.0.1/8', 'dev', 'lo']);
  execFileSync('ip', ['route', 'add', 'local', '127.0.0.0/8', 'dev', 'lo', 'table', 'local']);
  execFileSync('ip', ['route', 'add', 'local', '127.0.0.1/32', 'dev', 'lo', 'table', 'local', 'src', phoneAddress]);
  // Host candidates as addresses, not mDNS names (no mDNS responder here: gathering never ends).
  const browser = await launchBrowser(['--allow-loopback-in-peer-connection', '--disable-features=WebRtcHideLocalIpsWithMdns']);
  const page = await browser.newPage();
  const server = new nd.PeerConnection('server-browser', { iceServers: [], bindAddress: '127.0.0.1' });
  const ends: Ends = { up: [], down: [], send: () => undefined, close: () => (server.close(), void browser.close()) };
  let serverChannel: DataChannel | null = null;
  server.onDataChannel((channel) => {
    serverChannel = channel;
    channel.onMessage(() => ends.up.push(Date.now()));
  });
  const candidates: { candidate: string; mid: string }[] = [];
  server.onLocalCandidate((candidate, mid) => candidates.push({ candidate, mid }));
  const answered = new Promise<{ sdp: string; type: string }>((resolve) => server.onLocalDescription((sdp, type) => resolve({ sdp, type })));
  await page.exposeFunction('arrived', () => ends.down.push(Date.now()));
  const offer = await page.evaluate(async () => {
    const pc = new RTCPeerConnection({ iceServers: [] });
    const channel = pc.createDataChannel('datagram', { ordered: false, maxRetransmits: 0 });
    channel.onmessage = () => (window as unknown as { arrived: () => void }).arrived();
    Object.assign(window, { pc, channel });
    const gathered = new Promise<void>((resolve) => {
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
      setTimeout(resolve, 5_000);
    });
    await pc.setLocalDescription(await pc.createOffer());
    await gathered;
    return pc.localDescription!.sdp;
  });
  server.setRemoteDescription(offer, 'offer');
  const answer = await answered;
  await sleep(500); // the server's candidates
  await page.evaluate(
    async ({ answer, candidates }) => {
      const { pc } = window as unknown as { pc: RTCPeerConnection };
      await pc.setRemoteDescription({ sdp: answer.sdp, type: answer.type as RTCSdpType });
      for (const c of candidates) await pc.addIceCandidate({ candidate: c.candidate, sdpMid: c.mid });
    },
    { answer, candidates },
  );
  await page.waitForFunction(() => (window as unknown as { channel: RTCDataChannel }).channel.readyState === 'open', null, { timeout: 20_000 });
  await page.evaluate(
    ({ everyMs, padding }) => {
      const { channel } = window as unknown as { channel: RTCDataChannel };
      const pad = 'x'.repeat(padding);
      setInterval(() => channel.readyState === 'open' && channel.send(JSON.stringify({ sentAt: Date.now(), pad })), everyMs);
    },
    { everyMs: SEND_EVERY_MS, padding },
  );
  ends.send = (message) => {
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

async function loadDataChannel(): Promise<NodeDataChannel> {
  return (await import('node-datachannel')) as unknown as NodeDataChannel;
}

async function probe(trials: number, browser: boolean, padding: number): Promise<void> {
  const nd = await loadDataChannel();
  const shaper = await PacketShaper.start(PROFILES, { seed: 35 });
  const basement = PROFILES.find((p) => p.name === 'basement')!;
  const link = shaper.link(basement);
  const phoneAddress = link.localAddress;
  const links: Partial<Record<LinkName | 'chromium', Ends>> = browser
    ? { chromium: await browserLink(nd, phoneAddress, padding) }
    : {
        tcp: await tcpLink(phoneAddress),
        datagram: await dataChannelLink(nd, phoneAddress, 'datagram', { unordered: true, maxRetransmits: 0 }),
        reliable: await dataChannelLink(nd, phoneAddress, 'reliable', {}),
      };
  const names = Object.keys(links) as (keyof typeof links)[];
  await sleep(3_000);
  const ticker = setInterval(() => {
    const message = JSON.stringify({ sentAt: Date.now(), pad: 'x'.repeat(padding) });
    for (const name of names) links[name]!.send(message);
  }, SEND_EVERY_MS);
  const firsts = new Map<string, number[]>();
  for (let trial = 1; trial <= trials; trial++) {
    await sleep(2_000 + Math.random() * 2_000);
    link.cutOff(CUT_MS);
    const backAtMs = Date.now() + CUT_MS;
    await sleep(CUT_MS + 9_000);
    const row: string[] = [];
    for (const name of names) {
      for (const way of ['up', 'down'] as const) {
        const ms = firstAfter(links[name]![way], backAtMs);
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
    const [name, way] = key.split(' ');
    console.log(`| ${name} | ${way === 'up' ? 'phone → server' : 'server → phone'} | ${summary(values)} |`);
  }
  for (const name of names) links[name]!.close();
  await shaper.stop();
  nd.cleanup();
}

/**
 * `--patterns`: the phone's way of using the path, compared side by side on three paths of one
 * phone cut off together (paired trials: the same loss of signal, the same machine load). Each
 * phone end pings every 250 ms (25 bytes) and the server end answers with a pong; at the cut's
 * start the phone "taps" and repeats its pick until the server acknowledges it:
 * - `every250`: the pick (about 140 bytes) every 250 ms, and at once on a pong (the product's way);
 * - `paced`: the same while the server was heard within the last second; after that, one message
 *   a second until it is heard again (so a loss of signal cannot fill SCTP's window);
 * - `compact`: as `every250` with a pick of about 35 bytes.
 * The figure: how long after the signal came back the pick reached the server. PROBE_TRACE=1 runs
 * `every250` alone and logs its packets at the shaper (pass/drop, size) with each cut's end.
 */
type Pattern = 'every250' | 'paced' | 'compact';

async function patternLink(nd: NodeDataChannel, phoneAddress: string, pattern: Pattern) {
  const { server, phone } = peerPair(nd, phoneAddress, pattern);
  const picks: number[] = [];
  server.onDataChannel((channel) => {
    channel.onMessage((raw) => {
      const message = JSON.parse(String(raw)) as { type?: string; id?: number } | unknown[];
      if (Array.isArray(message) || (message as { type?: string }).type === 'submit_answer') {
        picks.push(Date.now());
        channel.sendMessage(JSON.stringify({ type: 'answer_accepted', questionId: '0e1d6f8a-6c1b-4f7e-9a55-2f0c8b7d3e21', selectedIndex: 2, answerId: 'k3j9x2mq' }));
      } else if (channel.isOpen()) channel.sendMessage(JSON.stringify({ type: 'pong', id: (message as { id: number }).id, serverTime: Date.now() }));
    });
  });
  const channel = phone.createDataChannel(pattern, { unordered: true, maxRetransmits: 0 });
  let heardAtMs = Date.now();
  let sentAtMs = 0;
  let pickAtMs = 0;
  let pending = false;
  let pingId = 0;
  const pick = () =>
    pattern === 'compact'
      ? JSON.stringify(['a', '0e1d6f', 2, 'k3j9x2mq', 4321])
      : JSON.stringify({ type: 'submit_answer', questionId: '0e1d6f8a-6c1b-4f7e-9a55-2f0c8b7d3e21', selectedIndex: 2, answerId: 'k3j9x2mq-5d7a-4c1e-8f3b-9a2e6d1c0b4f', reactionMs: 4321 });
  const send = (text: string) => {
    if (!channel.isOpen()) return;
    channel.sendMessage(text);
    sentAtMs = Date.now();
  };
  const sendPick = () => {
    send(pick());
    pickAtMs = Date.now();
  };
  channel.onMessage((raw) => {
    heardAtMs = Date.now();
    if (String(raw).includes('answer_accepted')) pending = false;
    else if (pending && Date.now() - pickAtMs >= SEND_EVERY_MS) sendPick();
  });
  await opened(channel, pattern);
  const timer = setInterval(() => {
    const nowMs = Date.now();
    const every = pattern === 'paced' && nowMs - heardAtMs > 1_000 ? 1_000 : SEND_EVERY_MS;
    if (nowMs - sentAtMs < every - 5) return;
    if (pending) sendPick();
    else send(JSON.stringify({ type: 'ping', id: ++pingId }));
  }, 25);
  return {
    picks,
    tap: () => {
      pending = true;
      sendPick();
    },
    close: () => {
      clearInterval(timer);
      phone.close();
      server.close();
    },
  };
}

async function patterns(trials: number): Promise<void> {
  const nd = await loadDataChannel();
  const shaper = await PacketShaper.start(PROFILES, { seed: 36, stderr: (text) => process.stderr.write(text) });
  const link = shaper.link(PROFILES.find((p) => p.name === 'basement')!);
  const names: Pattern[] = process.env.PROBE_TRACE ? ['every250'] : ['every250', 'paced', 'compact'];
  if (process.env.PROBE_TRACE) link.trace();
  const links: Awaited<ReturnType<typeof patternLink>>[] = [];
  for (const name of names) links.push(await patternLink(nd, link.localAddress, name));
  await sleep(3_000);
  const firsts = new Map<Pattern, number[]>(names.map((n) => [n, []]));
  for (let trial = 1; trial <= trials; trial++) {
    await sleep(2_000 + Math.random() * 2_000);
    link.cutOff(CUT_MS);
    const backAtMs = Date.now() + CUT_MS;
    if (process.env.PROBE_TRACE) console.error(`cut until ${backAtMs}`);
    await sleep(Math.random() * 300);
    for (const l of links) l.tap();
    await sleep(CUT_MS + 8_000);
    const row = names.map((name, i) => {
      const ms = firstAfter(links[i].picks, backAtMs);
      firsts.get(name)!.push(ms);
      return `${name} ${ms}`;
    });
    console.log(`trial ${trial}: ${row.join(', ')}`);
  }
  console.log('\npick first at the server after the signal is back (ms), tap at the cut, basement');
  console.log('| pattern | median | max | trials it never came |\n|---|--:|--:|--:|');
  for (const [name, values] of firsts) console.log(`| ${name} | ${summary(values)} |`);
  for (const l of links) l.close();
  await shaper.stop();
  nd.cleanup();
}

/**
 * `--scale N`: what N data channels cost, both ends in this process (unshaped loopback): the time
 * and CPU to open them, the memory they hold, their CPU while idle (ICE consent checks, SCTP
 * heartbeats), and while every phone end pings every 250 ms and the server end answers each with
 * a pong, as the product's paths do (docs/REALTIME.md). Half of it is roughly the server's share.
 */
async function scale(count: number): Promise<void> {
  const nd = await loadDataChannel();
  const rssBefore = process.memoryUsage().rss;
  const cpuBefore = process.cpuUsage();
  const startedAt = Date.now();
  const held: PeerConnection[] = [];
  const phoneEnds: DataChannel[] = [];
  for (let i = 0; i < count; i += 50) {
    const opening: Promise<void>[] = [];
    for (let j = i; j < Math.min(count, i + 50); j++) {
      const { server: a, phone: b } = peerPair(nd, '127.0.0.1', String(j));
      // a: the server's end (it creates the channel, as the product's server does); b: the phone's.
      const channel = a.createDataChannel('datagram', { unordered: true, maxRetransmits: 0 });
      channel.onMessage((message) => {
        const { id } = JSON.parse(String(message)) as { id: number };
        if (channel.isOpen()) channel.sendMessage(JSON.stringify({ type: 'pong', id, serverTime: Date.now() }));
      });
      b.onDataChannel((phoneEnd) => phoneEnds.push(phoneEnd));
      opening.push(new Promise((resolve) => channel.onOpen(resolve)));
      held.push(a, b);
    }
    await Promise.all(opening);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (usage: NodeJS.CpuUsage) => ((usage.user + usage.system) / 1e6).toFixed(2);
  console.log(`${count} data channels, both ends: open in ${((Date.now() - startedAt) / 1000).toFixed(1)} s, CPU ${seconds(cpu)} s, RSS +${Math.round((process.memoryUsage().rss - rssBefore) / 1e6)} MB`);
  const idleBefore = process.cpuUsage();
  await sleep(10_000);
  console.log(`idle for 10 s: CPU ${seconds(process.cpuUsage(idleBefore))} s`);
  let id = 0;
  let pongs = 0;
  for (const end of phoneEnds) end.onMessage(() => pongs++);
  // Spread over the 250 ms, as phones' timers are.
  const timers = phoneEnds.map((end, i) =>
    setTimeout(() => {
      timers[i] = setInterval(() => end.isOpen() && end.sendMessage(JSON.stringify({ type: 'ping', id: ++id })), 250);
    }, (i * 250) / phoneEnds.length),
  );
  await sleep(1_000);
  const pingingBefore = process.cpuUsage();
  const pongsBefore = pongs;
  await sleep(10_000);
  console.log(`pinging every 250 ms for 10 s: CPU ${seconds(process.cpuUsage(pingingBefore))} s, ${pongs - pongsBefore} pongs`);
  for (const timer of timers) clearInterval(timer);
  for (const pc of held) pc.close();
  nd.cleanup();
}

const args = process.argv.slice(2);
const scaleAt = args.indexOf('--scale');
if (scaleAt >= 0) {
  await scale(Number(args[scaleAt + 1] ?? 500));
  process.exit(0);
}
if (!process.env[NAMESPACE_VARIABLE]) process.exit((await runInNamespace()).code);
if (args.includes('--patterns')) {
  await patterns(Number(args.find((a) => /^\d+$/.test(a)) ?? 12));
  process.exit(0);
}
const sizeAt = args.indexOf('--size');
await probe(Number(args.find((a, i) => /^\d+$/.test(a) && i !== sizeAt + 1) ?? 12), args.includes('--browser'), sizeAt >= 0 ? Math.max(0, Number(args[sizeAt + 1]) - 30) : 0);
process.exit(0);

/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [--round N]`: where a profiled server
 * spent its CPU, as shares of the busy time (idle excluded), by part of the system and by function
 * (self time). Used to write docs/PERFORMANCE.md from the rounds' profiles that `--cpu-prof`
 * writes. `--round N` keeps the samples of the Nth measured round only (from the round starts the
 * probe writes next to the profile), to compare a first round with a later one.
 *
 * Given a `.heapprofile` (`--alloc-prof`): where the rounds allocated, in MB, by the same parts
 * and by the function that allocated (a builtin's allocation counts for the code that called it).
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface HeapProfileNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children?: HeapProfileNode[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const isSocketWrite = (fn: string) => /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString|writeUcs2String)$/.test(fn);

/** First match wins: the part of the system a function's self time belongs to. */
const PARTS: [string, (fn: string, url: string) => boolean][] = [
  ['socket writes (native)', (fn, url) => url === '' && isSocketWrite(fn)],
  ['database (Kysely, better-sqlite3)', (_fn, url) => url.includes('better-sqlite3') || url.includes('/kysely/')],
  ['ws library', (_fn, url) => url.includes('/node_modules/ws/')],
  ['zod', (_fn, url) => url.includes('/zod/')],
  ['Fastify, pino', (_fn, url) => /\/(fastify|pino|light-my-request|find-my-way|avvio)/.test(url)],
  ['baseline game logic', (_fn, url) => url.includes('/bench/baseline-server')],
  ['engine', (_fn, url) => url.includes('/server/game/engine/')],
  ['rooms', (_fn, url) => url.includes('/server/game/rooms/')],
  ['hub, sockets', (_fn, url) => url.includes('/server/transport/ws/') || url.includes('/server/transport/cluster/')],
  ['storage', (_fn, url) => url.includes('/server/storage/')],
  ['protocol (parsing)', (_fn, url) => url.includes('/protocol/')],
  ['node: streams, net, timers', (_fn, url) => url.startsWith('node:')],
];

/** The part of the system a frame belongs to (the first of PARTS that matches). */
function partOf(frame: { functionName: string; url: string }): string {
  return PARTS.find(([, test]) => test(frame.functionName, frame.url))?.[0] ?? 'other';
}

function functionKey({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  const where = url ? `${url.replace(/^.*\/(node_modules|server|protocol|bench)\//, '$1/')}:${lineNumber + 1}` : '(native)';
  return `${functionName || '(anonymous)'} ${where}`;
}

/** Largest first, as table rows: name, amount in `unit`s, share of `total`. */
function tableRows(map: Map<string, number>, n: number, unit: number, total: number, digits: number): string[] {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, amount]) => `| ${name} | ${(amount / unit).toFixed(digits)} | ${((100 * amount) / total).toFixed(1)}% |`);
}

/** A sampled allocation profile's bytes by part of the system and by allocating function, the probe's own left out. */
export function allocations(file: string): { total: number; parts: Map<string, number>; functions: Map<string, number> } {
  const head = (JSON.parse(fs.readFileSync(file, 'utf8')) as { head: HeapProfileNode }).head;
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapProfileNode, caller: ProfileNode['callFrame'] | undefined, inProbe: boolean) => {
    const probe = inProbe || node.callFrame.url.includes('/bench/probe');
    const frame = node.callFrame.url === '' && caller ? caller : node.callFrame;
    if (node.selfSize > 0 && !probe) {
      total += node.selfSize;
      const part = partOf(frame);
      parts.set(part, (parts.get(part) ?? 0) + node.selfSize);
      const key = functionKey(frame);
      functions.set(key, (functions.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children ?? []) walk(child, frame.url === '' ? caller : frame, probe);
  };
  walk(head, undefined, false);
  return { total, parts, functions };
}

function summarizeAllocations(file: string, top: number): string {
  const { total, parts, functions } = allocations(file);
  const mb = 1024 * 1024;
  return [
    `${file}: ${(total / mb).toFixed(1)} MB allocated (sampled)`,
    '',
    '| part | MB | share |',
    '|---|--:|--:|',
    ...tableRows(parts, parts.size, mb, total, 1),
    '',
    '| function (allocated itself) | MB | share |',
    '|---|--:|--:|',
    ...tableRows(functions, top, mb, total, 1),
  ].join('\n');
}

/** Which samples to count: all, or those between the Nth round's start and the next one's. */
function sampleFilter(file: string, profile: CpuProfile, round: number | undefined): (i: number) => boolean {
  if (round === undefined) return () => true;
  const marks = JSON.parse(fs.readFileSync(file.replace(/\.cpuprofile$/, '') + '.rounds.json', 'utf8')) as { roundStartsUs: number[] };
  const from = marks.roundStartsUs[round - 1];
  if (from === undefined) throw new Error(`the profile has ${marks.roundStartsUs.length} rounds`);
  const to = marks.roundStartsUs[round] ?? Number.POSITIVE_INFINITY;
  const at: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) at.push((t += delta));
  return (i) => at[i] >= from && at[i] < to;
}

function summarize(file: string, top: number, round?: number): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const counted = sampleFilter(file, profile, round);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  // The probe's own work (stopping the profiler, answering readings) is not the server's.
  const probeNodes = new Set<number>();
  const markProbe = (node: ProfileNode, inProbe: boolean) => {
    const probe = inProbe || node.callFrame.url.includes('/bench/probe');
    if (probe) probeNodes.add(node.id);
    for (const child of node.children ?? []) markProbe(byId.get(child)!, probe);
  };
  markProbe(profile.nodes[0], false);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (counted(i)) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  let busyUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (probeNodes.has(id)) continue;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    // A native function (a database statement, a syscall) counts for the JS code that called it.
    let caller: ProfileNode | undefined = byId.get(id);
    while (caller && caller.callFrame.url === '' && !isSocketWrite(caller.callFrame.functionName)) caller = parentOf.get(caller.id);
    const frame = caller?.callFrame ?? { functionName, url };
    const part = functionName.startsWith('(') ? functionName : partOf(frame);
    parts.set(part, (parts.get(part) ?? 0) + us);
    const key = functionKey({ functionName, url, lineNumber });
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const rows = (map: Map<string, number>, n: number) => tableRows(map, n, 1000, busyUs, 0);
  return [
    `${file}${round === undefined ? '' : ` round ${round}`}: busy ${(busyUs / 1e6).toFixed(2)} s, idle ${(idleUs / 1e6).toFixed(2)} s`,
    '',
    '| part | ms | share |',
    '|---|--:|--:|',
    ...rows(parts, parts.size),
    '',
    '| function (self time) | ms | share |',
    '|---|--:|--:|',
    ...rows(functions, top),
  ].join('\n');
}

// Run as a script (not imported by a test).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));

function main(args: string[]): void {
  const roundAt = args.indexOf('--round');
  const round = roundAt >= 0 ? Number(args.splice(roundAt, 2)[1]) : undefined;
  const [file, top] = args;
  if (!file || (round !== undefined && !(round >= 1))) {
    console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [--round N] | <file.heapprofile> [top]');
    process.exit(2);
  }
  console.log(file.endsWith('.heapprofile') ? summarizeAllocations(file, Number(top ?? 30)) : summarize(file, Number(top ?? 30), round));
}

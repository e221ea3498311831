import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Runs inside a measured server process (Marquee through marquee-server.ts, or the baseline) and
 * answers the bench runner over the IPC channel: event-loop delay since the last reset, and a
 * forced GC before memory is read. Nothing here touches the server's code or its hot path
 * beyond one timer at RESOLUTION_MS.
 */

/** Sampling interval of the event-loop delay monitor; a block shorter than this may go unseen. */
const RESOLUTION_MS = 2;

export interface ProbeRequest {
  type: 'probe';
  id: number;
  /** Collect garbage first (needs --expose-gc), so RSS is read after a full GC in both targets. */
  gc?: boolean;
  /** Start a new event-loop delay window after reading the current one. */
  resetEventLoop?: boolean;
  /**
   * The measured rounds begin or end. With BENCH_CPU_PROFILE set (a file path), a V8 CPU profile
   * of the main thread covers exactly the rounds, without registration and connection noise; with
   * BENCH_ALLOC_PROFILE, V8's sampling heap profiler records where the rounds allocate.
   */
  rounds?: 'start' | 'end';
  /**
   * A measured round starts now. With a profile running, its time is kept and written next to
   * the profile (`<file>.rounds.json`), so `profile-summary.ts --round N` can show one round.
   */
  markRound?: boolean;
  /**
   * Another window to profile (`many`'s setup and idle spell): with BENCH_CPU_PROFILE set, the
   * samples from `start` to `end` go to `<scenario>-<target>-<name>.cpuprofile`.
   */
  window?: { name: 'setup' | 'idle'; at: 'start' | 'end' };
}

/** Sampling interval of the rounds' CPU profile (µs): V8's default for --cpu-prof. */
const PROFILE_INTERVAL_US = 1000;

/** Now on V8's profile clock (CLOCK_MONOTONIC, µs): the clock of a profile's startTime and samples. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

type Mark = 'start' | 'end' | 'round' | NonNullable<ProbeRequest['window']>;

function roundsProfiler(file: string | undefined) {
  if (!file) return async (_mark: Mark) => {};
  const session = new Session();
  session.connect();
  let roundStartsUs: number[] = [];
  return async (mark: Mark) => {
    if (mark === 'round') {
      roundStartsUs.push(monotonicUs());
      return;
    }
    if (mark === 'start' || (typeof mark === 'object' && mark.at === 'start')) {
      if (mark === 'start') roundStartsUs = [];
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US });
      await session.post('Profiler.start');
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    if (typeof mark === 'object') {
      fs.writeFileSync(file.replace(/\.cpuprofile$/, `-${mark.name}.cpuprofile`), JSON.stringify(profile));
      return;
    }
    fs.writeFileSync(file, JSON.stringify(profile));
    fs.writeFileSync(file.replace(/\.cpuprofile$/, '') + '.rounds.json', JSON.stringify({ roundStartsUs }));
  };
}

/**
 * Every allocation of the measured rounds, sampled about once per ALLOC_SAMPLE_BYTES, collected or
 * not: the garbage the rounds make, by the code that made it. A deterministic figure where CPU
 * time on a shared two-core machine moves by a fifth between runs (docs/PERFORMANCE.md, session 57).
 */
const ALLOC_SAMPLE_BYTES = 8_192;

function roundsAllocations(file: string | undefined) {
  if (!file) return async (_mark: 'start' | 'end') => {};
  const session = new Session();
  session.connect();
  return async (mark: 'start' | 'end') => {
    if (mark === 'start') {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: ALLOC_SAMPLE_BYTES,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      return;
    }
    const { profile } = await session.post('HeapProfiler.stopSampling');
    fs.writeFileSync(file, JSON.stringify(profile));
  };
}

export interface EventLoopDelay {
  /** Milliseconds. */
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

export interface ProbeReply {
  type: 'probe';
  id: number;
  eventLoop: EventLoopDelay;
  /** V8 heap in use, KiB (after the GC when one was asked for). */
  heapUsedKb: number;
}

export function installProbe(): void {
  if (!process.send) return; // Started by hand, not by the bench: nothing to answer.
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  // The histogram holds whole intervals between samples; the delay is what exceeds the interval.
  const delayMs = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);

  const profile = roundsProfiler(process.env.BENCH_CPU_PROFILE);
  const allocations = roundsAllocations(process.env.BENCH_ALLOC_PROFILE);

  process.on('message', async (raw: unknown) => {
    const request = raw as ProbeRequest;
    if (!request || request.type !== 'probe') return;
    if (request.gc && typeof globalThis.gc === 'function') globalThis.gc();
    if (request.rounds) {
      await profile(request.rounds);
      await allocations(request.rounds);
    }
    if (request.window) await profile(request.window);
    if (request.markRound) await profile('round');
    const eventLoop: EventLoopDelay = {
      p50: histogram.count ? delayMs(histogram.percentile(50)) : 0,
      p99: histogram.count ? delayMs(histogram.percentile(99)) : 0,
      max: histogram.count ? delayMs(histogram.max) : 0,
      samples: histogram.count,
    };
    if (request.resetEventLoop) histogram.reset();
    const heapUsedKb = Math.round(process.memoryUsage().heapUsed / 1024);
    const reply: ProbeReply = { type: 'probe', id: request.id, eventLoop, heapUsedKb };
    process.send?.(reply);
  });
  // The bench runner went away (crash, Ctrl-C): do not outlive it.
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

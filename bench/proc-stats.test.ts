import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { TargetResult } from './ipc.js';
import { readCpuSeconds, readMainThreadCpuSeconds, readMainThreadWaitSeconds } from './proc-stats.js';
import { firstRoundCpu } from './report.js';

// A worker that burns `seconds` of its own thread's CPU (its own count, so a busy machine only
// makes it take longer), then exits.
const BURNER = `
const { workerData } = require('node:worker_threads');
const cpu = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1e6;
};
const start = cpu();
while (cpu() - start < workerData.seconds) {}
`;

describe('the server CPU figures read from /proc', () => {
  it('tells the main thread apart from the process: a worker’s CPU counts for the process only', async () => {
    const processBefore = readCpuSeconds(process.pid);
    const mainBefore = readMainThreadCpuSeconds(process.pid);
    const worker = new Worker(BURNER, { eval: true, workerData: { seconds: 0.35 } });
    await new Promise((resolve, reject) => worker.once('exit', resolve).once('error', reject));
    const processSpent = readCpuSeconds(process.pid) - processBefore;
    const mainSpent = readMainThreadCpuSeconds(process.pid) - mainBefore;
    expect(processSpent).toBeGreaterThanOrEqual(0.3);
    // The main thread only waited (and started the worker): far less than the worker's 0.35 s.
    expect(processSpent - mainSpent).toBeGreaterThanOrEqual(0.25);
    expect(mainSpent).toBeGreaterThanOrEqual(0);
  });

  it('counts the time the main thread waited for a core while more threads wanted one than there are', async () => {
    const waitedBefore = readMainThreadWaitSeconds(process.pid);
    expect(waitedBefore).toBeGreaterThanOrEqual(0);
    // One burner per core, each until it has run 0.4 s, and the main thread spinning beside them.
    const burners = Array.from({ length: os.availableParallelism() }, () => new Worker(BURNER, { eval: true, workerData: { seconds: 0.4 } }));
    const exited = burners.map((worker) => new Promise((resolve, reject) => worker.once('exit', resolve).once('error', reject)));
    // The main thread spins until it has run 0.3 s itself.
    const start = process.threadCpuUsage();
    let ran = 0;
    while (ran < 0.3) {
      const { user, system } = process.threadCpuUsage(start);
      ran = (user + system) / 1e6;
    }
    await Promise.all(exited);
    // More runnable threads than cores: the main thread sat in the run queue for part of its 0.3 s.
    expect(readMainThreadWaitSeconds(process.pid) - waitedBefore).toBeGreaterThanOrEqual(0.03);
  });

  it('compares the first round’s server CPU with the median round’s', () => {
    const rounds = (cpu: number[]) => ({ perRound: cpu.map((serverCpuSeconds) => ({ serverCpuSeconds })) }) as unknown as TargetResult;
    expect(firstRoundCpu(rounds([2.8, 1.9, 1.7]))).toBeCloseTo(2.8 / 1.9, 5);
    expect(firstRoundCpu(rounds([1.5]))).toBeNaN();
  });
});

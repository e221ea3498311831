/**
 * `npm run bench -- cluster-idle [100,1000]`: what idle live sessions cost Redis in multi-instance
 * mode (issue 26). For each count S: three instances on PostgreSQL and a redis-server of the
 * bench's own (cluster-target.ts), S sessions started and left idle (no phones: a chain's games
 * waiting for their audience), then Redis's commands per second over IDLE_MS, by command (INFO
 * commandstats). The target: the rate does not grow with S.
 */
import path from 'node:path';
import { setUpGame } from './api.js';
import { startCluster } from './cluster-target.js';
import { ADMIN_PASSWORD } from './targets.js';
import { sleep } from './wait.js';

const IDLE_MS = 10_000;
/** Time for every lease to be taken, every game loaded and the instances' scans to settle into their idle pattern (the starts come last in the setup). */
const SETTLE_MS = 15_000;

export interface ClusterIdleResult {
  sessions: number;
  commandsPerSecond: number;
  byCommand: Record<string, number>;
}

export async function runClusterIdle(counts: number[], outDir: string, log: (line: string) => void): Promise<ClusterIdleResult[]> {
  const results: ClusterIdleResult[] = [];
  for (const sessions of counts) {
    log(`  ${sessions} idle sessions over 3 instances: starting`);
    const cluster = await startCluster({ logDir: path.join(outDir, 'logs'), label: `cluster-idle-${sessions}`, openFiles: 4096 });
    try {
      await setUpGame(cluster.baseUrl, ADMIN_PASSWORD, sessions, 1, 16);
      await sleep(SETTLE_MS);
      const before = await cluster.relayCounters();
      await sleep(IDLE_MS);
      const after = await cluster.relayCounters();
      const byCommand: Record<string, number> = {};
      let total = 0;
      for (const [command, calls] of Object.entries(after.commands)) {
        const perSecond = Math.round(((calls - (before.commands[command] ?? 0)) * 10_000) / IDLE_MS) / 10;
        // INFO itself is the measurement's own command.
        if (perSecond > 0 && command !== 'info') byCommand[command] = perSecond;
        if (command !== 'info') total += perSecond;
      }
      results.push({ sessions, commandsPerSecond: Math.round(total * 10) / 10, byCommand });
      log(`  ${sessions} idle sessions: ${total.toFixed(1)} Redis commands/s`);
    } finally {
      await cluster.stop();
    }
  }
  return results;
}

export function formatClusterIdle(results: ClusterIdleResult[]): string {
  const lines = ['| idle live sessions over 3 instances | Redis commands/s | by command |', '|--:|--:|---|'];
  for (const r of results) {
    const shown = Object.entries(r.byCommand).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ');
    lines.push(`| ${r.sessions} | ${r.commandsPerSecond} | ${shown} |`);
  }
  return lines.join('\n');
}

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInNamespace } from './netns.js';

const TSX = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');

describe('the networks bench’s namespace shaper (needs root, ip, tc and python3, as the bench)', () => {
  it('delays, drops and cuts off real packets of the phone addresses only, and leaves no namespace behind', async () => {
    const { code, stdout } = await runInNamespace([TSX, path.join(import.meta.dirname, 'netns-probe.ts')], 'pipe');
    expect(code).toBe(0);
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number | null>;
    // A connection is up after one round trip: 2 × 150 ms one way at the least, never sooner.
    expect(result.delayedMs).toBeGreaterThanOrEqual(300);
    expect(result.delayedMs).toBeLessThan(3_000);
    // Loopback between plain addresses (the display, the admin API) does not go through the shaper.
    expect(result.plainMs).not.toBeNull();
    expect(result.plainPackets).toBe(0);
    // Every packet of the lossy profile is dropped: no connection at all.
    expect(result.deadMs).toBeNull();
    // During a loss of signal the SYN is dropped; TCP's own resend (1 s later) gets through.
    expect(result.cutMs).toBeGreaterThanOrEqual(1_000);
    expect(result.dropped).toBeGreaterThanOrEqual(3);
    expect(result.passed).toBeGreaterThanOrEqual(4);
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toContain(`marquee-net-${process.pid}`);
  }, 30_000);
});

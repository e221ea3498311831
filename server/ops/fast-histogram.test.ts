import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastHistogram } from './fast-histogram.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];

describe('FastHistogram', () => {
  it("exposes the same text as prom-client's histogram for the same observations", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({ name: 'h_seconds', help: 'A duration', labelNames: ['target'] as const, buckets: BOUNDS, registers: [theirs] });
    const fast = new FastHistogram('h_seconds', 'A duration', 'target', BOUNDS, ours);
    // On a bound, between bounds, below the first, above the last, and a second label value.
    const observations: [string, number][] = [['all', 0.001], ['all', 0.05], ['all', 0.0001], ['all', 7], ['players', 0.2], ['players', 0.2]];
    for (const [target, value] of observations) {
      reference.labels({ target }).observe(value);
      fast.labels(target).observe(value);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('h_seconds_bucket{le="0.001",target="all"} 2');
    expect(text).toContain('h_seconds_bucket{le="+Inf",target="all"} 4');
    expect(text).toContain('h_seconds_count{target="players"} 2');
  });

  it('keeps one series per label value and starts again from zero on reset', async () => {
    const registry = new Registry();
    const fast = new FastHistogram('h_seconds', 'A duration', 'target', BOUNDS, registry);
    const all = fast.labels('all');
    expect(fast.labels('all')).toBe(all);
    all.observe(0.5);
    all.observe(Number.NaN); // not a duration: ignored
    expect(await registry.metrics()).toContain('h_seconds_count{target="all"} 1');
    registry.resetMetrics();
    expect(await registry.metrics()).toContain('h_seconds_count{target="all"} 0');
  });
});

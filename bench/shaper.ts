/**
 * The four network profiles of `npm run bench -- networks` (the issue's: one-way delay ± jitter,
 * loss, signal losses). Played on real packets in the bench's own network namespace by default
 * (netns.ts, tun-shaper.py); `--shaper proxy` plays them per phone with a userspace TCP proxy
 * instead (server/testing/shaped-link.ts), the fallback without root.
 */
import type { NetworkProfile } from '../server/testing/shaped-link.js';

export { ShapedLink, type NetworkProfile } from '../server/testing/shaped-link.js';

export const PROFILES: NetworkProfile[] = [
  { name: 'wifi', oneWayMs: 5, jitterMs: 0, loss: 0, signalLossMs: 0 },
  { name: 'lte', oneWayMs: 60, jitterMs: 20, loss: 0.005, signalLossMs: 0 },
  { name: 'weak', oneWayMs: 250, jitterMs: 80, loss: 0.03, signalLossMs: 0 },
  { name: 'basement', oneWayMs: 400, jitterMs: 150, loss: 0.05, signalLossMs: 4_000 },
];

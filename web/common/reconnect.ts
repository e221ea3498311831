/**
 * Real-time client timings (SPEC §9): reconnect delay from 1000 ms growing to 5000 ms with
 * jitter 0.5, and a 20000 ms connect timeout. Kept apart from the hook so it can be unit-tested.
 */
export const RECONNECT_MIN_DELAY_MS = 1000;
export const RECONNECT_MAX_DELAY_MS = 5000;
export const RECONNECT_JITTER = 0.5;
export const CONNECT_TIMEOUT_MS = 20_000;

/**
 * Delay before reconnect attempt `attempt` (0-based): doubling from the minimum, each value
 * moved randomly by up to ±50% so a theatre full of phones does not reconnect in one burst,
 * and always within [min, max].
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_MIN_DELAY_MS * 2 ** Math.max(0, attempt));
  const jitter = (random() * 2 - 1) * RECONNECT_JITTER * base;
  return Math.round(Math.min(RECONNECT_MAX_DELAY_MS, Math.max(RECONNECT_MIN_DELAY_MS, base + jitter)));
}

/** Close codes after which trying again cannot help (bad token, unknown session or player). */
export const PERMANENT_CLOSE_CODES = new Set([4400, 4401, 4404, 4410]);

/** ws:// or wss:// on this page's host, as the app is served by the same server. */
export function socketUrl(params: Record<string, string>): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/ws?${new URLSearchParams(params).toString()}`;
}

/**
 * Real-time client timings (SPEC §9): reconnect delays between 1000 and 5000 ms with jitter 0.5,
 * and a 20000 ms connect timeout. Pure, so the schedule is unit-tested without sockets.
 */
export const RECONNECT_MIN_DELAY_MS = 1000;
export const RECONNECT_MAX_DELAY_MS = 5000;
/** Up to half of each delay is random, so a full auditorium does not reconnect in one burst. */
export const RECONNECT_JITTER = 0.5;
export const CONNECT_TIMEOUT_MS = 20_000;

/**
 * Delay before reconnect attempt `attempt` (0 = the first retry). The base doubles from the
 * minimum up to the maximum; jitter then takes off up to 50% of it, never going under the minimum.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_MIN_DELAY_MS * 2 ** Math.max(0, attempt));
  const jittered = base * (1 - RECONNECT_JITTER * random());
  return Math.round(Math.max(RECONNECT_MIN_DELAY_MS, jittered));
}

/**
 * Close codes after which retrying cannot help: malformed query, refused credentials, unknown
 * session or player, deleted session (protocol CLOSE_CODES). Every other close is retried.
 * Listed here rather than imported, so the phone bundle does not pull zod in with protocol/messages.
 */
export const PERMANENT_CLOSE_CODES: ReadonlySet<number> = new Set([4400, 4401, 4404, 4410]);

/** ws:// or wss:// on this page's own host: the app and the socket are served by the same server. */
export function sessionSocketUrl(params: Record<string, string>, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws?${new URLSearchParams(params).toString()}`;
}

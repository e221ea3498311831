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
 * A socket given up as silent (DESIGN §14) stays open this long beside its replacement: TCP may
 * still deliver the pick it carries once the signal is back, sooner than a new connection can
 * (no handshake), and the acceptance it brings back still counts.
 */
export const RETIRED_SOCKET_MS = 10_000;

/**
 * Whether a message from a retired socket is taken. Until its replacement opens, the newest retired
 * socket is the phone's only line to the server: a question it brings is shown then, not when the
 * replacement's handshakes are through (on a weak link that was seconds, all of it off the player's
 * time and beyond what the server could credit). Once the replacement is open, it carries the
 * game; a retired socket brings only what `accepted` lets through (the pick's confirmation), since
 * TCP may deliver its older frames late.
 */
export function takeFromRetired(standing: { newestRetired: boolean; replacementOpen: boolean; accepted: boolean }): boolean {
  return standing.accepted || (standing.newestRetired && !standing.replacementOpen);
}

/**
 * Delay before reconnect attempt `attempt` (0 = the first retry). The base doubles from the
 * minimum up to the maximum; the delay is drawn from a window half the base wide (the jitter)
 * ending at the base, moved up where it would start under the minimum: 1–1.5 s, 1–2 s, 2–4 s,
 * then 2.5–5 s. The first retry is spread too: a server restart drops a full house at the same
 * instant, and 2,000 phones retrying on the same millisecond would arrive as one burst.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_MIN_DELAY_MS * 2 ** Math.max(0, attempt));
  const earliest = Math.max(RECONNECT_MIN_DELAY_MS, base * (1 - RECONNECT_JITTER));
  return Math.round(earliest + base * RECONNECT_JITTER * random());
}

/**
 * Close codes after which retrying cannot help: malformed query, refused credentials, removed by
 * the host, unknown session or player, deleted session (protocol CLOSE_CODES). Every other close is retried.
 * Listed here rather than imported, so the phone bundle does not pull zod in with protocol/messages.
 */
export const PERMANENT_CLOSE_CODES: ReadonlySet<number> = new Set([4400, 4401, 4403, 4404, 4410]);

/** ws:// or wss:// on this page's own host: the app and the socket are served by the same server. */
export function sessionSocketUrl(params: Record<string, string>, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws?${new URLSearchParams(params).toString()}`;
}

/**
 * The address of one connection attempt: the socket's own, plus the parameters of that attempt
 * only (the phone's unconfirmed pick in a reconnect's upgrade request, DESIGN §14).
 */
export function attemptUrl(url: string, extra: Record<string, string> | undefined): string {
  if (!extra || Object.keys(extra).length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(extra).toString()}`;
}

/** The phone repeats what matters on the datagram path this often (docs/REALTIME.md "The datagram path"). */
export const DATAGRAM_REPEAT_MS = 250;

/**
 * Whether a message that came on the datagram path is taken. The path brings the question's state
 * (repeated until the phone says it has it) and the pick's confirmation; a datagram may arrive
 * late or twice. So a state is taken only when it shows a question and is newer than every state
 * the phone has had on either path (`newestStateServerTime`): a late repeat can never take the
 * phone back into a question that has ended, and the copy that comes second changes nothing.
 */
export function takeDatagram(
  message: { type: string; phase?: string; serverTime?: number },
  newestStateServerTime: number | null,
): boolean {
  if (message.type === 'answer_accepted') return true;
  if (message.type !== 'session_state' || message.phase !== 'question' || typeof message.serverTime !== 'number') return false;
  return newestStateServerTime === null || message.serverTime > newestStateServerTime;
}

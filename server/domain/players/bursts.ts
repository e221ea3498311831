/**
 * Watches refused registrations per session, so the operator sees a burst (DESIGN §15: "a line in
 * Live Controls"). Counts refusals over the last minute and reports at most every REPORT_EVERY_MS
 * per session: a flood of 5,000 refusals is a handful of messages, not 5,000.
 */
const WINDOW_MS = 60_000;
const REPORT_EVERY_MS = 2_000;
const MAX_KEPT = 10_000;

export interface BurstReport {
  refused: number;
  addresses: number;
}

interface SessionBurst {
  refusals: { atMs: number; address: string }[];
  reportedAtMs: number;
}

export class BurstWatch {
  private readonly sessions = new Map<string, SessionBurst>();

  constructor(
    private readonly report: (sessionId: string, burst: BurstReport) => void,
    private readonly now: () => number = Date.now,
  ) {}

  refused(sessionId: string, address: string): void {
    const nowMs = this.now();
    for (const [id, s] of this.sessions) if (s.refusals.at(-1)!.atMs < nowMs - WINDOW_MS) this.sessions.delete(id);
    const burst = this.sessions.get(sessionId) ?? { refusals: [], reportedAtMs: -Infinity };
    this.sessions.set(sessionId, burst);
    burst.refusals = burst.refusals.filter((r) => r.atMs >= nowMs - WINDOW_MS);
    burst.refusals.push({ atMs: nowMs, address });
    // Bounded under any flood: beyond this the count is "at least" (the line says thousands anyway).
    if (burst.refusals.length > MAX_KEPT) burst.refusals.shift();
    if (nowMs - burst.reportedAtMs < REPORT_EVERY_MS) return;
    burst.reportedAtMs = nowMs;
    this.report(sessionId, { refused: burst.refusals.length, addresses: new Set(burst.refusals.map((r) => r.address)).size });
  }
}

/**
 * What the server measures of one socket's delay, for the scoring credit (engine/credit.ts,
 * DESIGN §14). Only the server's own observations count, never what the phone says:
 *
 * - round trips of the server's own WebSocket pings: a probe every few seconds, and one sent
 *   right behind each question on the same TCP stream, so its pong cannot come back before the
 *   question arrived (it measures that question's way down, resends included);
 * - silence: a ping still unanswered when an answer arrives means the link stalled; the time
 *   since the server last heard from the socket is what it observed;
 * - stalls: a silence that ended (the socket spoke again after a ping of ours was overdue) is
 *   remembered for the question: an answer that comes later on that link was held up by it;
 * - a cut-off: a socket opened by a player whose previous socket went quiet measures the gap,
 *   from the last word on the old socket to the new one's opening, or the old socket's stall and
 *   its question round trip when that is longer (the old socket may have spoken again after the
 *   signal came back without the answer). It applies to the question open at the reconnect only
 *   (the next question's ping clears it, and the stall).
 *
 * allowance = question round trip + worst recent round trip + max(silence, stall, cut-off): the
 * round trips cover the question's way down and the answer's way up, the rest the time the link
 * was stalled or gone in between. The engine caps it at 5 s.
 *
 * While a socket is stalled its growing allowance is reported too (`checkStall`, from the link
 * probes), so the reveal's hold waits for that player as for one whose socket dropped.
 */
import { MAX_ALLOWANCE_MS } from '../../game/engine/credit.js';

/** Round trips remembered per socket: enough to catch a resent packet, short enough to follow a change. */
export const RTT_SAMPLE_WINDOW = 8;
/** A new allowance is reported to the engine (for the reveal's hold) when it moved this much. */
const REPORT_CHANGE_MS = 50;

/** How far the probe after a question's ping is spread (half the default probe interval). */
const PROBE_SPREAD_MS = 1_000;

const QUESTION_PING = 'q';
const PROBE_PING = 'p';

export class LinkDelay {
  private readonly samples: number[] = [];
  /** The ping sent behind the current question, and its round trip once its pong came. */
  private questionPingAtMs: number | null = null;
  private questionRttMs: number | null = null;
  /** The oldest probe not answered yet. */
  probeSentAtMs: number | null = null;
  lastProbeAtMs = Number.NEGATIVE_INFINITY;
  private cutOffMs = 0;
  /** The longest stall that ended during the current question. */
  private stallMs = 0;
  /** Tells the engine a new allowance (player_delay); set by the socket's owner. */
  onReport: ((allowanceMs: number) => void) | null = null;
  private questionId: string | null = null;
  /** The allowance last reported to the engine. */
  private reportedMs = 0;

  /** The payload of a ping sent now behind a question (the pong echoes it). */
  questionPing(nowMs: number, questionId: string): string {
    this.questionPingAtMs = nowMs;
    // A round-trip sample like a probe: the next probe is an interval away. Spread over half an
    // interval more, so a full house's probes do not all fall due in the same check.
    this.lastProbeAtMs = nowMs + Math.random() * PROBE_SPREAD_MS;
    this.questionRttMs = null;
    // A cut-off is credited to the question open at the reconnect, not to the next one.
    if (this.questionId !== null && this.questionId !== questionId) this.cutOffMs = this.stallMs = 0;
    this.questionId = questionId;
    return `${QUESTION_PING}${nowMs}`;
  }

  probe(nowMs: number): string {
    this.probeSentAtMs ??= nowMs;
    this.lastProbeAtMs = nowMs;
    return `${PROBE_PING}${nowMs}`;
  }

  /**
   * The socket replaced one of the same player last heard from at `lastHeardAtMs`; `previous`:
   * that player's socket still open (its stall and question round trip carry over).
   */
  cutOff(nowMs: number, lastHeardAtMs: number, previous?: LinkDelay): void {
    const carriedMs = previous ? previous.stallMs + (previous.questionRttMs ?? 0) : 0;
    this.cutOffMs = Math.min(MAX_ALLOWANCE_MS, Math.max(0, nowMs - lastHeardAtMs, carriedMs));
  }

  /** The socket spoke at `nowMs`, last heard at `lastHeardAtMs`: a silence with a ping overdue was a stall. */
  heard(nowMs: number, lastHeardAtMs: number): void {
    if (this.stalled(nowMs)) this.stallMs = Math.max(this.stallMs, nowMs - lastHeardAtMs);
  }

  /** From the probes' timer: a stalled socket's growing allowance goes to the engine (the reveal's hold). */
  checkStall(nowMs: number, lastHeardAtMs: number): void {
    if (!this.onReport || !this.stalled(nowMs)) return;
    const allowanceMs = this.allowanceMs(nowMs, lastHeardAtMs);
    if (allowanceMs - this.reportedMs < REPORT_CHANGE_MS) return;
    this.reportedMs = allowanceMs;
    this.onReport(allowanceMs);
  }

  /**
   * A pong arrived. Returns the new steady allowance when it moved enough to tell the engine,
   * else null. Pongs of pings that are not ours (the heartbeat's, empty) change nothing.
   */
  onPong(payload: Buffer | string, nowMs: number): number | null {
    const text = typeof payload === 'string' ? payload : payload.toString('latin1');
    const sentAtMs = Number(text.slice(1));
    if (!Number.isFinite(sentAtMs) || text.length < 2 || sentAtMs > nowMs) return null;
    const rttMs = nowMs - sentAtMs;
    if (text[0] === QUESTION_PING) {
      if (sentAtMs === this.questionPingAtMs) this.questionRttMs = rttMs;
    } else if (text[0] === PROBE_PING) {
      if (this.probeSentAtMs !== null && sentAtMs >= this.probeSentAtMs) this.probeSentAtMs = null;
    } else {
      return null;
    }
    this.samples.push(rttMs);
    if (this.samples.length > RTT_SAMPLE_WINDOW) this.samples.shift();
    const steady = this.steadyMs(nowMs);
    if (Math.abs(steady - this.reportedMs) < REPORT_CHANGE_MS) return null;
    this.reportedMs = steady;
    return steady;
  }

  worstRttMs(): number {
    // Indexed: read for every frame a phone sends, and an iterator here was an object each time (issue 26).
    const { samples } = this;
    let worst = 0;
    for (let i = 0; i < samples.length; i++) if (samples[i] > worst) worst = samples[i];
    return worst;
  }

  /** The question's way down (its ping's round trip, or how long that ping has waited) plus the worst recent round trip. */
  private steadyMs(nowMs: number): number {
    const questionMs = this.questionRttMs ?? (this.questionPingAtMs !== null ? nowMs - this.questionPingAtMs : 0);
    return Math.min(MAX_ALLOWANCE_MS, questionMs + this.worstRttMs());
  }

  /**
   * The allowance for an answer arriving now. `lastHeardAtMs`: when the socket was last heard
   * from before this answer (silence counts only while a ping of ours is unanswered).
   */
  allowanceMs(nowMs: number, lastHeardAtMs: number): number {
    const silenceMs = this.stalled(nowMs) ? Math.max(0, nowMs - lastHeardAtMs) : 0;
    return Math.min(MAX_ALLOWANCE_MS, this.steadyMs(nowMs) + Math.max(silenceMs, this.stallMs, this.cutOffMs));
  }

  /** Stalled: a ping of ours is overdue (out longer than any recent round trip). */
  private stalled(nowMs: number): boolean {
    // Runs on every frame a phone sends and every probe check: nothing out, nothing to compute.
    const question = this.questionRttMs === null ? this.questionPingAtMs : null;
    if (this.probeSentAtMs === null && question === null) return false;
    const worst = this.worstRttMs();
    return (this.probeSentAtMs !== null && nowMs - this.probeSentAtMs > worst) || (question !== null && nowMs - question > worst);
  }
}

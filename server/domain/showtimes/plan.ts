/**
 * The pre-show scheduler's decisions (DESIGN §13, docs/SHOWTIMES.md), as a pure function of the
 * showtimes with their claims, the auditoriums' settings and the time. The runner (runner.ts)
 * reads these inputs from the database, asks what to do, and applies each step with a
 * conditional update, so a step taken twice (a restart, a second instance) changes nothing.
 */
import type { PreShowState } from '../../../protocol/api.js';
import type { SessionStatus } from '../../../protocol/views.js';

const MINUTE_MS = 60_000;
/** A start found later than this after its moment is logged as late. */
export const LATE_AFTER_MS = 5_000;

export interface PlanSettings {
  auditoriumId: string;
  templateSessionId: string | null;
  leadMinutes: number;
  endMinutes: number;
}

export interface PlanShowtime {
  id: string;
  auditoriumId: string;
  title: string;
  /** Epoch ms. */
  startsAt: number;
  /** The claim as stored: its state, the copy it made (and that copy's status now), its fixed end. */
  claim: {
    state: PreShowState;
    sessionId: string | null;
    /** null: no copy, or the copy was deleted. */
    sessionStatus: SessionStatus | null;
    endsAt: number | null;
  };
}

export type PreShowStep =
  /** Claim a waiting pre-show and start it: copy the template, start the copy. */
  | { kind: 'start'; showtimeId: string; endsAt: number; lateByMs: number }
  /** A claimed pre-show without a running copy (a crash between claim and start): finish starting it. */
  | { kind: 'resume'; showtimeId: string }
  /** Its end has come: stop the copy (the final leaderboard stays on screen) and close the claim. */
  | { kind: 'stop'; showtimeId: string; sessionId: string | null }
  /** Never started and its end has passed: left out, with the reason logged and stored. */
  | { kind: 'skip'; showtimeId: string; reason: string }
  /** Its copy was stopped or deleted by hand before the end: the claim closes, nothing restarts it. */
  | { kind: 'settle'; showtimeId: string; reason: string };

export interface PreShowWindow {
  startsAt: number;
  endsAt: number;
}

/** When a showtime's pre-show runs under the given settings. */
export function preShowWindow(showtimeStartsAt: number, settings: { leadMinutes: number; endMinutes: number }): PreShowWindow {
  return { startsAt: showtimeStartsAt - settings.leadMinutes * MINUTE_MS, endsAt: showtimeStartsAt - settings.endMinutes * MINUTE_MS };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function planPreShows(showtimes: PlanShowtime[], settings: PlanSettings[], now: number): PreShowStep[] {
  const byAuditorium = new Map(settings.map((s) => [s.auditoriumId, s]));
  const steps: PreShowStep[] = [];
  // One pre-show at a time per auditorium: a running one holds the screen until it stops.
  const busy = new Set<string>();
  for (const s of showtimes) {
    if (s.claim.state === 'live' && !(s.claim.endsAt !== null && now >= s.claim.endsAt)) busy.add(s.auditoriumId);
  }

  for (const showtime of [...showtimes].sort((a, b) => a.startsAt - b.startsAt || a.id.localeCompare(b.id))) {
    const { claim } = showtime;
    if (claim.state === 'live') {
      steps.push(...planClaimed(showtime, now));
      continue;
    }
    if (claim.state !== 'pending') continue;
    const auditorium = byAuditorium.get(showtime.auditoriumId);
    if (!auditorium) continue;
    const window = preShowWindow(showtime.startsAt, auditorium);
    if (now < window.startsAt) continue;
    if (now >= window.endsAt) {
      const reason = auditorium.templateSessionId
        ? `its pre-show (${iso(window.startsAt)} to ${iso(window.endsAt)}) had ended before it could start (was Marquee stopped, or the showtime added too late?)`
        : `no pre-show session was chosen for the auditorium before its pre-show's end (${iso(window.endsAt)})`;
      steps.push({ kind: 'skip', showtimeId: showtime.id, reason });
      continue;
    }
    // Inside its window: it starts as soon as there is a template and the screen is free (late if need be).
    if (!auditorium.templateSessionId || busy.has(showtime.auditoriumId)) continue;
    busy.add(showtime.auditoriumId);
    steps.push({ kind: 'start', showtimeId: showtime.id, endsAt: window.endsAt, lateByMs: now - window.startsAt });
  }
  return steps;
}

function planClaimed(showtime: PlanShowtime, now: number): PreShowStep[] {
  const { claim } = showtime;
  if (claim.endsAt !== null && now >= claim.endsAt) return [{ kind: 'stop', showtimeId: showtime.id, sessionId: claim.sessionId }];
  if (claim.sessionId === null) return [{ kind: 'resume', showtimeId: showtime.id }];
  switch (claim.sessionStatus) {
    case 'live':
      return [];
    case 'draft':
    case 'scheduled':
      return [{ kind: 'resume', showtimeId: showtime.id }];
    case 'finished':
      return [{ kind: 'settle', showtimeId: showtime.id, reason: 'its session was stopped by hand before the pre-show end' }];
    case null:
      return [{ kind: 'settle', showtimeId: showtime.id, reason: 'its session was deleted during the pre-show' }];
  }
}

/**
 * Applies the pre-show scheduler's decisions (plan.ts) to the database and the session
 * lifecycle. Every step is safe to take twice: claims are conditional updates, starting and
 * stopping are conditional status transitions, and a copy is recorded only if none was first.
 */
import type { RoomLog } from '../../game/rooms/broadcaster.js';
import { isDomainError } from '../../errors.js';
import type { SessionLifecycle } from '../sessions/lifecycle.js';
import type { Store } from '../../storage/store.js';
import type { PreShowOwnership } from './ownership.js';
import { LATE_AFTER_MS, planPreShows, type PlanSettings, type PreShowStep } from './plan.js';

/** How often the runner looks at the schedule: a pre-show starts or stops at most this late. */
export const PRE_SHOW_CHECK_INTERVAL_MS = 1000;
const TITLE_MAX = 200;

export interface PreShowRunnerDeps {
  store: Store;
  lifecycle: SessionLifecycle;
  clock: { now(): number };
  log: RoomLog;
  ownership: PreShowOwnership;
}

/** "{template title} — {film} {HH:MM}", HH:MM the wall time the showtime was written in. */
export function preShowTitle(templateTitle: string, film: string, startsAtMs: number, utcOffsetMinutes: number): string {
  const local = new Date(startsAtMs + utcOffsetMinutes * 60_000);
  const time = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
  // Titles are at most 200 characters: the film gives way first, then the template's title.
  const filmPart = film.slice(0, TITLE_MAX - 20);
  const suffix = ` — ${filmPart} ${time}`;
  return `${templateTitle.slice(0, TITLE_MAX - suffix.length)}${suffix}`;
}

/** Ends a pre-show's copy whatever state it is in: stops it if live, deletes it if it never started. */
export async function endPreShowSession(store: Store, lifecycle: SessionLifecycle, sessionId: string): Promise<void> {
  const session = await store.sessions.get(sessionId);
  if (!session) return;
  if (session.status === 'draft' || session.status === 'scheduled') {
    try {
      await lifecycle.delete(sessionId);
      return;
    } catch (err) {
      if (!isLostRace(err)) throw err;
    }
  }
  await ignoreLostRace(lifecycle.stop(sessionId));
}

/** 409/404 from the lifecycle: someone else (another instance, an operator) took the step first. */
const isLostRace = (err: unknown) => isDomainError(err, 'conflict', 'not_found');
/** Takes a lifecycle step; false when someone else took it first. */
async function ignoreLostRace(step: Promise<unknown>): Promise<boolean> {
  try {
    await step;
    return true;
  } catch (err) {
    if (!isLostRace(err)) throw err;
    return false;
  }
}

export class PreShowRunner {
  constructor(private readonly deps: PreShowRunnerDeps) {}

  /** Looks at the schedule once and takes every step due; returns the steps decided. */
  async tick(): Promise<PreShowStep[]> {
    const { store, clock, ownership, log } = this.deps;
    if (!(await ownership.mayRun())) return [];
    const now = clock.now();
    const settings: PlanSettings[] = (await store.auditoriums.list()).map((a) => ({
      auditoriumId: a.id,
      templateSessionId: a.preShowSessionId,
      leadMinutes: a.preShowLeadMinutes,
      endMinutes: a.preShowEndMinutes,
    }));
    const steps = planPreShows(await store.showtimes.planInput(now), settings, now);
    for (const step of steps) {
      try {
        await this.apply(step, now);
      } catch (err) {
        // One failing step (a database hiccup) must not hold up the others; it is decided again next tick.
        log.error({ err, step }, 'pre-show step failed');
      }
    }
    return steps;
  }

  /**
   * Ticks every `intervalMs` until the returned function is called (which waits for a tick in
   * progress, so the database is not closed under it); a slow tick is never overlapped.
   */
  startTimer(intervalMs = PRE_SHOW_CHECK_INTERVAL_MS): () => Promise<void> {
    let current: Promise<void> | null = null;
    const timer = setInterval(() => {
      if (current) return;
      current = this.tick()
        .then(() => undefined, (err: unknown) => this.deps.log.error({ err }, 'pre-show scheduler failed'))
        .finally(() => {
          current = null;
        });
    }, intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await current;
    };
  }

  private async apply(step: PreShowStep, now: number): Promise<void> {
    const { store, lifecycle, log, ownership } = this.deps;
    switch (step.kind) {
      case 'start': {
        if (!(await store.showtimes.claimStart(step.showtimeId, step.endsAt, now, ownership.instanceId))) return;
        const late = step.lateByMs > LATE_AFTER_MS ? { lateBySeconds: Math.round(step.lateByMs / 1000) } : {};
        log.info({ showtimeId: step.showtimeId, endsAt: new Date(step.endsAt).toISOString(), ...late }, late.lateBySeconds ? 'pre-show starting late' : 'pre-show starting');
        await this.bringUp(step.showtimeId);
        return;
      }
      case 'resume':
        log.info({ showtimeId: step.showtimeId }, 'pre-show resuming its start');
        await this.bringUp(step.showtimeId);
        return;
      case 'stop':
        // Stop first, then close the claim: a crash between the two only repeats a stop that is a no-op.
        if (step.sessionId) {
          const session = await store.sessions.get(step.sessionId);
          if (session?.status === 'live') await ignoreLostRace(lifecycle.stop(step.sessionId));
        }
        if (await store.showtimes.finish(step.showtimeId)) log.info({ showtimeId: step.showtimeId, sessionId: step.sessionId }, 'pre-show stopped');
        return;
      case 'skip':
        if (await store.showtimes.skip(step.showtimeId, step.reason)) log.warn({ showtimeId: step.showtimeId, reason: step.reason }, 'pre-show skipped');
        return;
      case 'settle':
        if (await store.showtimes.finish(step.showtimeId, step.reason)) log.info({ showtimeId: step.showtimeId, reason: step.reason }, 'pre-show ended early');
        return;
    }
  }

  /** Makes the claimed pre-show's copy (once) and starts it (once). */
  private async bringUp(showtimeId: string): Promise<void> {
    const { store, lifecycle, log } = this.deps;
    const showtime = await store.showtimes.get(showtimeId);
    if (!showtime || showtime.pre_show_state !== 'live') return;
    let sessionId = showtime.session_id;
    if (sessionId === null) {
      const auditorium = await store.auditoriums.get(showtime.auditorium_id);
      const template = auditorium?.preShowSessionId ? await store.sessions.get(auditorium.preShowSessionId) : undefined;
      if (!template) {
        const reason = 'its pre-show session was removed from the auditorium before the pre-show could start';
        if (await store.showtimes.finish(showtimeId, reason)) log.warn({ showtimeId, reason }, 'pre-show skipped');
        return;
      }
      const title = preShowTitle(template.title, showtime.title, Date.parse(showtime.starts_at), showtime.utc_offset_minutes);
      // The operator tells the copies apart by the long title; the room sees the template's (DESIGN §17).
      const audienceTitle = template.audienceTitle ?? template.title;
      const copy = await lifecycle.copy(template, { title, auditoriumId: showtime.auditorium_id, audienceTitle });
      if (await store.showtimes.attachSession(showtimeId, copy.id)) {
        sessionId = copy.id;
      } else {
        // Another instance recorded its copy first, or the showtime was deleted: this copy is not needed.
        await ignoreLostRace(lifecycle.delete(copy.id));
        sessionId = (await store.showtimes.get(showtimeId))?.session_id ?? null;
        if (sessionId === null) return;
      }
    }
    const session = await store.sessions.get(sessionId);
    if (session && (session.status === 'draft' || session.status === 'scheduled')) {
      if (await ignoreLostRace(lifecycle.start(sessionId))) log.info({ showtimeId, sessionId }, 'pre-show live');
    }
    // Deleted while it was starting: the delete may not have seen the copy yet, so end it here.
    if (!(await store.showtimes.get(showtimeId))) await endPreShowSession(store, lifecycle, sessionId);
  }
}

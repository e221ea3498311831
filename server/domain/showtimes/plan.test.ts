import { describe, expect, it } from 'vitest';
import { planPreShows, type PlanSettings, type PlanShowtime } from './plan.js';

const MIN = 60_000;
const T = Date.parse('2030-01-15T18:00:00Z');
const settings: PlanSettings[] = [{ auditoriumId: 'a1', templateSessionId: 'tpl', leadMinutes: 20, endMinutes: 2 }];
const pending = (id: string, startsAt: number, auditoriumId = 'a1'): PlanShowtime => ({
  id,
  auditoriumId,
  title: id,
  startsAt,
  claim: { state: 'pending', sessionId: null, sessionStatus: null, endsAt: null },
});

describe('planPreShows (pure: showtimes, settings, claims, now)', () => {
  it('decides nothing before the lead, a start inside the window, a skip after its end', () => {
    expect(planPreShows([pending('s', T)], settings, T - 20 * MIN - 1)).toEqual([]);
    expect(planPreShows([pending('s', T)], settings, T - 20 * MIN)).toEqual([{ kind: 'start', showtimeId: 's', endsAt: T - 2 * MIN, lateByMs: 0 }]);
    expect(planPreShows([pending('s', T)], settings, T - 3 * MIN)).toEqual([{ kind: 'start', showtimeId: 's', endsAt: T - 2 * MIN, lateByMs: 17 * MIN }]);
    expect(planPreShows([pending('s', T)], settings, T - 2 * MIN)).toEqual([{ kind: 'skip', showtimeId: 's', reason: expect.stringMatching(/had ended before it could start/) }]);
  });

  it('keeps one pre-show at a time per auditorium: the next waits until the running one stops', () => {
    const running: PlanShowtime = { ...pending('first', T), claim: { state: 'live', sessionId: 'x', sessionStatus: 'live', endsAt: T - 2 * MIN } };
    const next = pending('second', T + 5 * MIN);
    expect(planPreShows([running, next], settings, T - 10 * MIN)).toEqual([]);
    expect(planPreShows([running, next], settings, T - 2 * MIN)).toEqual([
      { kind: 'stop', showtimeId: 'first', sessionId: 'x' },
      { kind: 'start', showtimeId: 'second', endsAt: T + 3 * MIN, lateByMs: 13 * MIN },
    ]);
  });

  it('finishes a claim whose copy is missing or not started, and settles one stopped by hand', () => {
    const claim = (sessionId: string | null, sessionStatus: PlanShowtime['claim']['sessionStatus']): PlanShowtime => ({
      ...pending('s', T),
      claim: { state: 'live', sessionId, sessionStatus, endsAt: T - 2 * MIN },
    });
    const now = T - 10 * MIN;
    expect(planPreShows([claim(null, null)], settings, now)).toEqual([{ kind: 'resume', showtimeId: 's' }]);
    expect(planPreShows([claim('x', 'draft')], settings, now)).toEqual([{ kind: 'resume', showtimeId: 's' }]);
    expect(planPreShows([claim('x', 'live')], settings, now)).toEqual([]);
    expect(planPreShows([claim('x', 'finished')], settings, now)).toEqual([{ kind: 'settle', showtimeId: 's', reason: expect.stringMatching(/stopped by hand/) }]);
    expect(planPreShows([claim('x', null)], settings, now)).toEqual([{ kind: 'settle', showtimeId: 's', reason: expect.stringMatching(/deleted/) }]);
    expect(planPreShows([claim('x', 'finished')], settings, T - 2 * MIN)).toEqual([{ kind: 'stop', showtimeId: 's', sessionId: 'x' }]);
  });

  it('waits without a template, and leaves done, skipped and unknown-auditorium showtimes alone', () => {
    const noTemplate: PlanSettings[] = [{ ...settings[0]!, templateSessionId: null }];
    expect(planPreShows([pending('s', T)], noTemplate, T - 10 * MIN)).toEqual([]);
    expect(planPreShows([pending('s', T)], noTemplate, T - MIN)).toEqual([{ kind: 'skip', showtimeId: 's', reason: expect.stringMatching(/no pre-show session was chosen/) }]);
    const done: PlanShowtime = { ...pending('d', T), claim: { state: 'done', sessionId: 'x', sessionStatus: 'finished', endsAt: T - 2 * MIN } };
    const skipped: PlanShowtime = { ...pending('k', T), claim: { state: 'skipped', sessionId: null, sessionStatus: null, endsAt: null } };
    expect(planPreShows([done, skipped, pending('o', T, 'elsewhere')], settings, T - 10 * MIN)).toEqual([]);
  });
});

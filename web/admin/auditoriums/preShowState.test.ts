import { describe, expect, it } from 'vitest';
import type { Showtime } from '../types';
import { clockTime, withLocalOffset } from '../../common/format';
import { auditoriumState, preShowText } from './preShowState';

const showtime = (title: string, startsAt: string, preShow: Partial<Showtime['preShow']> = {}): Showtime => {
  const at = Date.parse(startsAt);
  return {
    id: title,
    auditoriumId: 'a',
    title,
    startsAt,
    createdAt: startsAt,
    preShow: { state: 'pending', startsAt: new Date(at - 20 * 60_000).toISOString(), endsAt: new Date(at - 2 * 60_000).toISOString(), sessionId: null, note: null, ...preShow },
  };
};
const NOW = Date.parse('2030-01-15T12:00:00Z');

describe("an auditorium's state line", () => {
  it('says live until the end, else the next pre-show that will run, else idle', () => {
    const dune = showtime('Dune', '2030-01-15T18:00:00Z');
    const heat = showtime('Heat', '2030-01-15T21:00:00Z');
    expect(auditoriumState([heat, dune], true, NOW)).toEqual({ kind: 'next', text: `Next pre-show at ${clockTime(dune.preShow.startsAt)}` });
    const live = { ...dune, preShow: { ...dune.preShow, state: 'live' as const } };
    expect(auditoriumState([heat, live], true, NOW)).toEqual({ kind: 'live', text: `Pre-show live until ${clockTime(dune.preShow.endsAt)}` });
    // Without a template nothing will run; skipped and done ones never count.
    expect(auditoriumState([heat, dune], false, NOW)).toEqual({ kind: 'idle', text: 'Idle' });
    expect(auditoriumState([{ ...dune, preShow: { ...dune.preShow, state: 'skipped' } }], true, NOW).kind).toBe('idle');
    expect(auditoriumState([], true, NOW).kind).toBe('idle');
  });

  it("words each showtime's pre-show", () => {
    const dune = showtime('Dune', '2030-01-15T18:00:00Z');
    expect(preShowText(dune, true)).toBe(`Pre-show ${clockTime(dune.preShow.startsAt)}–${clockTime(dune.preShow.endsAt)}`);
    expect(preShowText(dune, false)).toBe('No pre-show session chosen');
    expect(preShowText({ ...dune, preShow: { ...dune.preShow, state: 'skipped', note: 'its pre-show had ended' } }, true)).toBe('Pre-show skipped: its pre-show had ended');
    expect(preShowText({ ...dune, preShow: { ...dune.preShow, state: 'done' } }, true)).toBe('Pre-show done');
  });
});

describe('a typed local time with its offset', () => {
  it("adds this browser's offset to what the operator typed", () => {
    const written = withLocalOffset('2030-07-01T19:30')!;
    expect(written).toMatch(/^2030-07-01T19:30:00[+-]\d{2}:\d{2}$/);
    // The same moment as the browser reads the typed value.
    expect(Date.parse(written)).toBe(new Date('2030-07-01T19:30').getTime());
    expect(withLocalOffset('not a date')).toBeNull();
  });
});

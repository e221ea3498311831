import type { Showtime } from '../types';
import { clockTime } from '../../common/format';

/**
 * An auditorium's state line in the Auditoriums tab (docs/SHOWTIMES.md): "Pre-show live until
 * 19:28", "Next pre-show at 21:10" or "Idle". Only pre-shows that will run count as next.
 */
export function auditoriumState(showtimes: Showtime[], hasTemplate: boolean, now = Date.now()): { kind: 'live' | 'next' | 'idle'; text: string } {
  const live = showtimes.find((s) => s.preShow.state === 'live');
  if (live) return { kind: 'live', text: `Pre-show live until ${clockTime(live.preShow.endsAt)}` };
  const next = hasTemplate
    ? showtimes
        .filter((s) => s.preShow.state === 'pending' && Date.parse(s.preShow.endsAt) > now)
        .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt))[0]
    : undefined;
  if (next) return { kind: 'next', text: `Next pre-show at ${clockTime(next.preShow.startsAt)}` };
  return { kind: 'idle', text: 'Idle' };
}

/** One showtime's pre-show, as its row in the list says it. */
export function preShowText(showtime: Showtime, hasTemplate: boolean): string {
  const { preShow } = showtime;
  switch (preShow.state) {
    case 'pending':
      return hasTemplate ? `Pre-show ${clockTime(preShow.startsAt)}–${clockTime(preShow.endsAt)}` : 'No pre-show session chosen';
    case 'live':
      return `Pre-show live until ${clockTime(preShow.endsAt)}`;
    case 'done':
      return preShow.note ? `Pre-show ended early: ${preShow.note}` : 'Pre-show done';
    case 'skipped':
      return `Pre-show skipped: ${preShow.note ?? ''}`;
  }
}

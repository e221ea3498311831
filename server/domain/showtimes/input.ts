/**
 * What a showtime may be, whether typed in the admin or read from a file (DESIGN §13,
 * docs/SHOWTIMES.md): a film title and a start time that carries its time zone, in the future,
 * not crowding another showtime of the same auditorium. Pure: no I/O.
 */
import type { NewShowtime } from '../../storage/showtimes.js';

export const SHOWTIME_TITLE_MAX = 200;
export const SHOWTIME_IMPORT_MAX_ROWS = 10_000;

const EXAMPLE = '2026-11-23T19:30+01:00';
// Date, time (seconds and fraction optional), then Z or an offset; a space may stand for the T.
const WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})$/i;
const WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

export type Checked<T> = { value: T } | { problems: string[] };

/** An ISO-8601 date and time with Z or an offset, e.g. 2026-11-23T19:30+01:00. */
export function parseStartsAt(raw: string, field = 'startsAt'): Checked<{ ms: number; utcOffsetMinutes: number }> {
  const text = raw.trim();
  const match = WITH_ZONE.exec(text);
  if (!match) {
    if (WITHOUT_ZONE.test(text)) {
      return { problems: [`${field} "${text}" has no time zone: add Z (UTC) or the offset, e.g. ${EXAMPLE}`] };
    }
    return { problems: [`${field} must be a date and time with its time zone, e.g. ${EXAMPLE} (found "${raw}")`] };
  }
  const [, y, mo, d, h, mi, s = '0', , zone] = match;
  const offset = zone!.toUpperCase() === 'Z' ? 0 : offsetMinutes(zone!);
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    Math.abs(offset) > 14 * 60
  ) {
    return { problems: [`${field} "${text}" is not a real date and time`] };
  }
  // Showtimes are to the minute: seconds are kept, fractions dropped.
  return { value: { ms: wall - offset * 60_000, utcOffsetMinutes: offset } };
}

function offsetMinutes(zone: string): number {
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
}

export function checkTitle(raw: string, field = 'title'): Checked<string> {
  const title = raw.trim();
  if (title.length === 0) return { problems: [`${field} is empty: give the film's title`] };
  if (title.length > SHOWTIME_TITLE_MAX) return { problems: [`${field} is longer than ${SHOWTIME_TITLE_MAX} characters`] };
  if (title.includes('\0')) return { problems: [`${field} contains a NUL character`] };
  return { value: title };
}

/** One showtime as typed or read: every problem found, or the showtime. Past times are refused. */
export function checkShowtime(raw: { title: string; startsAt: string }, now: number, fields = { title: 'title', startsAt: 'startsAt' }): Checked<NewShowtime> {
  const title = checkTitle(raw.title, fields.title);
  const startsAt = parseStartsAt(raw.startsAt, fields.startsAt);
  const problems = [...('problems' in title ? title.problems : []), ...('problems' in startsAt ? startsAt.problems : [])];
  if ('value' in startsAt && startsAt.value.ms <= now) {
    problems.push(`${fields.startsAt} ${raw.startsAt.trim()} is in the past: only future showtimes can be added`);
  }
  if (problems.length > 0 || !('value' in title) || !('value' in startsAt)) return { problems };
  return { value: { title: title.value, startsAt: startsAt.value.ms, utcOffsetMinutes: startsAt.value.utcOffsetMinutes } };
}

export interface Scheduled {
  title: string;
  /** Epoch ms. */
  startsAt: number;
}

/**
 * Two showtimes of one auditorium crowd each other when they are less than the lead time apart:
 * the later one's pre-show would begin before the earlier film has started (docs/SHOWTIMES.md).
 */
export function findCrowding<T extends Scheduled>(candidate: Scheduled, others: T[], leadMinutes: number): T | undefined {
  const gap = leadMinutes * 60_000;
  return others.find((o) => Math.abs(o.startsAt - candidate.startsAt) < gap);
}

export function crowdingMessage(candidate: Scheduled, other: Scheduled, leadMinutes: number): string {
  return (
    `"${candidate.title}" at ${utcText(candidate.startsAt)} overlaps the pre-show of "${other.title}" at ${utcText(other.startsAt)}: ` +
    `showtimes in one auditorium must be at least the pre-show lead time (${leadMinutes} min) apart.`
  );
}

/** 2026-11-23 18:30 UTC: server messages cannot know the reader's time zone, so they say UTC. */
export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

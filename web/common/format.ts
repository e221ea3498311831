/** Dates as the operator's browser writes them, e.g. "11/21/2025" in en-US. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString();
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const pluralRules = new Intl.PluralRules('en-US');

/**
 * A count with its noun in the right form (Intl.PluralRules, English texts): "1 question",
 * "2 questions", "0 questions". Never "question(s)".
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${pluralRules.select(count) === 'one' ? singular : pluralForm}`;
}

/** 19:30: a time of day in this browser's local time. */
export function clockTime(iso: string): string {
  return localClock(new Date(iso));
}

const localClock = (at: Date) => at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** "Today 19:30", "Tomorrow 14:00", "Sat 28 Nov 19:30" (with the year when not this one), in this browser's local time. */
export function showingTime(iso: string, today = new Date()): string {
  const at = new Date(iso);
  const time = clockTime(iso);
  const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((dayStart(at) - dayStart(today)) / 86_400_000);
  if (days === 0) return `Today ${time}`;
  if (days === 1) return `Tomorrow ${time}`;
  const year = at.getFullYear() === today.getFullYear() ? {} : { year: 'numeric' as const };
  return `${at.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', ...year })} ${time}`;
}

/**
 * A datetime-local value ("2026-11-23T19:30") as ISO-8601 with this browser's offset
 * ("2026-11-23T19:30:00+01:00"): the time as the operator typed it, with its time zone.
 */
export function withLocalOffset(datetimeLocal: string): string | null {
  const date = new Date(datetimeLocal);
  if (Number.isNaN(date.getTime())) return null;
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const seconds = datetimeLocal.length === 16 ? ':00' : '';
  return `${datetimeLocal}${seconds}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/**
 * A pre-show copy's title ends in the showing's wall time as "19:30" (DESIGN §13): written here
 * the way this browser writes times ("7:30 PM" in en-US), like every other time in the admin.
 */
export function titleWithLocalTime(title: string): string {
  const match = /^(.*) (\d{2}):(\d{2})$/.exec(title);
  if (!match) return title;
  const at = new Date(2000, 0, 1, Number(match[2]), Number(match[3]));
  return `${match[1]} ${localClock(at)}`;
}

/** "Question 3 of 10" (DESIGN §17), on the display and the phone during a question. */
export const questionNumberText = (n: { number: number; total: number }) => `Question ${n.number} of ${n.total}`;

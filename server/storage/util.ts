import { randomUUID } from 'node:crypto';
import type { Compilable, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

export const newId = (): string => randomUUID();
export const nowIso = (): string => new Date().toISOString();

/** Rows per multi-row INSERT: well under both drivers' bound-parameter limits (9 values a row at most here). */
const CHUNK_ROWS = 500;

/** Writes `rows` in multi-row statements of at most CHUNK_ROWS, one after another. */
export async function inChunks<T>(rows: readonly T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) await write(rows.slice(i, i + CHUNK_ROWS));
}

/** Up to 9999-12-31T23:59:59.999Z the ISO form has a four-digit year, and the cached second below applies. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_800_000;
let isoSecond = Number.NaN;
let isoPrefix = '';

/**
 * `new Date(ms).toISOString()`, for the live game's rows (every answer and score): the text up to
 * the second is kept from the previous call, since a burst's rows share their second. A Date and
 * its string per row was about a microsecond each, 20,000 a round at 1,000 games of 10 (issue 26).
 */
export function isoOfMs(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= LAST_FOUR_DIGIT_YEAR_MS) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20); // "2030-01-01T20:00:00."
    isoSecond = second;
  }
  const millis = ms - second * 1000;
  return isoPrefix + (millis < 10 ? '00' : millis < 100 ? '0' : '') + millis + 'Z';
}

/** Marks a slot's placeholder value in a query compiled once (`compiledOnce`): no id or token starts with a NUL. */
const SLOT = '\u0000slot:';

/**
 * A hot read compiled once and run with each call's values (a token check at every phone's
 * connect, the session at every registration): Kysely builds and compiles a query anew on every
 * call, which cost more than running it. `build` names its parameters with `slot(name)`; every
 * other parameter keeps the value it was compiled with.
 */
export function compiledOnce<R, K extends string>(
  db: Kysely<Database>,
  build: (slot: (name: K) => string) => Compilable<R>,
): (values: Record<K, string>) => Promise<QueryResult<R>> {
  const compiled = build((name) => SLOT + name).compile();
  const names = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? (p.slice(SLOT.length) as K) : null));
  return (values) => db.executeQuery<R>({ ...compiled, parameters: compiled.parameters.map((p, i) => (names[i] === null ? p : values[names[i]!])) });
}

/**
 * Now, or a millisecond after `latestIso` if that is not yet past: a creation time that sorts
 * after the latest row's, so rows added within one millisecond keep the order they were added in.
 */
export const msAfter = (latestIso: string | null | undefined): number => Math.max(Date.now(), latestIso ? Date.parse(latestIso) + 1 : 0);

/**
 * A creation time (ms) for a new row of a table listed by creation: after its newest row's
 * (`msAfter`), so rows added within one millisecond list in the order they were added.
 */
export async function nextCreatedAtMs(db: Kysely<Database>, table: 'auditoriums' | 'media' | 'questions'): Promise<number> {
  const latest = await db.selectFrom(table).select((eb) => eb.fn.max('created_at').as('latest')).executeTakeFirst();
  return msAfter(latest?.latest);
}

/** JSON columns are written by us; a damaged value reads as the fallback rather than failing a request. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Unique/foreign-key violations from either driver, so callers can answer 409 instead of 500. */
export function isConstraintError(err: unknown): boolean {
  const e = err as { code?: string };
  return (
    typeof e?.code === 'string' &&
    (e.code.startsWith('SQLITE_CONSTRAINT') || e.code === '23505' || e.code === '23503' || e.code === '23514')
  );
}

/** A foreign key refused a row (it points at something deleted meanwhile). */
export function isForeignKeyError(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Which database errors are faults of the storage itself (the server or disk away, full or
 * broken) rather than of the query, named in a few fixed words: "disk full", "connection
 * refused". Those words go to /readyz (public: never a host name or a driver's message) and to
 * the log beside the full error.
 */

/** Node's socket errors, as a driver passes them on. */
const SOCKET_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection lost',
  EPIPE: 'connection lost',
  ETIMEDOUT: 'timeout',
  EHOSTUNREACH: 'host unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ENOSPC: 'disk full',
  EROFS: 'not writable',
  EACCES: 'not writable',
  EPERM: 'not writable',
  EIO: 'i/o error',
};

/** SQLite result codes (better-sqlite3 `code`), extended codes matched by their prefix. */
const SQLITE_CAUSES: [prefix: string, cause: string][] = [
  ['SQLITE_FULL', 'disk full'],
  ['SQLITE_IOERR', 'i/o error'],
  ['SQLITE_READONLY', 'not writable'],
  ['SQLITE_CANTOPEN', 'cannot open the file'],
  ['SQLITE_CORRUPT', 'corrupt'],
  ['SQLITE_NOTADB', 'corrupt'],
];

/** PostgreSQL SQLSTATE codes and classes. */
function postgresCause(code: string): string | undefined {
  if (code === '53100') return 'disk full';
  if (code === '53200') return 'out of memory';
  if (code === '53300') return 'too many connections';
  if (code === '57P01' || code === '57P02') return 'shutting down';
  if (code === '57P03') return 'starting up';
  if (code === '25006') return 'read only';
  if (code.startsWith('08')) return 'connection lost';
  if (code.startsWith('58')) return 'i/o error';
  return undefined;
}

/** pg's own messages for a connection it lost or could not open in time. */
const PG_MESSAGES: [RegExp, string][] = [
  [/Connection terminated|not queryable|Client has encountered a connection error/i, 'connection lost'],
  [/timeout exceeded when trying to connect/i, 'timeout'],
];

/** The fault's short name, or undefined when `err` is not a storage fault (a constraint, a bad query). */
export function storageFaultCause(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CAUSES[code]) return SOCKET_CAUSES[code];
    if (code.startsWith('SQLITE_')) return SQLITE_CAUSES.find(([prefix]) => code.startsWith(prefix))?.[1];
    if (/^[0-9A-Z]{5}$/.test(code)) return postgresCause(code);
  }
  // AggregateError (a host with several addresses): the first connection error says it.
  const inner = (err as { errors?: unknown[] }).errors?.[0];
  if (inner) return storageFaultCause(inner);
  const message = err instanceof Error ? err.message : '';
  return PG_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
}

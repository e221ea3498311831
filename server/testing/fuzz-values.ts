/**
 * The fuzz's seeded randomness and the values that break things, shared by its HTTP and
 * WebSocket runs (server/testing/fuzz.ts).
 */
// ---------------------------------------------------------------------------------------------
// Seeded randomness

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }

  /** mulberry32: small, fast, good enough to pick fuzz cases. */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

// ---------------------------------------------------------------------------------------------
// Values that break things

export const HUGE_STRING = 'x'.repeat(100_000);

/** JSON values of every type and size, for "wrong type" and "huge value" cases. */
export const WEIRD_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.0, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, -2147483649,
  '', ' ', 'a', '0', 'true', 'null', '\u0000', '\ud800', '😀'.repeat(300), 'é\u0301', '<script>alert(1)</script>',
  "'; drop table sessions; --", '../../etc/passwd', '%00', '\r\nX-Injected: 1', HUGE_STRING.slice(0, 5_000),
  [], [1, 2, 3], [null], ['a'.repeat(1000)], {}, { a: 1 }, { __proto__: { polluted: true } }, { constructor: { prototype: { polluted: true } } },
  new Array(2_000).fill(0),
];

/** Bodies that are not JSON at all, or not the JSON they claim to be. */
export const MALFORMED_BODIES: (string | Buffer)[] = [
  '{', '}', '{"a":}', '{"a":1,}', "{'a':1}", 'NaN', '{"a":NaN}', 'undefined', '[', '"unterminated', '{"a":1}{"b":2}',
  '\u0000', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}',
  '['.repeat(5_000) + ']'.repeat(5_000), '{"a":'.repeat(2_000) + '1' + '}'.repeat(2_000),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // UTF-8 BOM, then {}
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), // invalid UTF-8 in a string
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), // overlong encoding
  Buffer.from('{"a":1}', 'utf16le'),
  Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]), // the start of a gzip stream
];

export const ODD_CONTENT_TYPES = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'multipart/form-data',
  'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/JSON', 'application/json;;;',
  'application/octet-stream', 'application/xml', '*/*', '', 'json', 'application/json, text/plain',
];

export const BAD_IDS = [
  '00000000-0000-0000-0000-000000000000', '6f1c1d6e-3b9a-4f43-9e43-3f1c7c2a9b11', 'not-an-id', '0', '-1', '1e309', 'null',
  'undefined', '%20', '%00', '%zz', '%', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%E2%82%AC', '%F0%9F%98%80', '%C0%AF',
  'a'.repeat(300), 'a'.repeat(5_000), '__proto__', 'constructor', "'%20or%201=1", '%3Cscript%3E',
];

export const QUERY_VALUES = ['', '0', '-1', '1.5', 'true', 'x', 'a'.repeat(5_000), '%00', '%zz', '%E2%82%AC', '[]', '{}', 'null', '9'.repeat(400)];


export function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The JSON type of a value, as a schema names it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * HTTP and WebSocket fuzzing against a running server (docs/OPERATIONS.md, "Fuzzing").
 *
 * HTTP: every operation of the served OpenAPI document, sent over raw TCP so nothing between
 * us and the server tidies the request up: malformed and mistyped bodies, huge values, odd
 * encodings and content types, bad and foreign ids, broken query strings, missing, bad and
 * duplicated headers. Requests go out in parallel batches; after a batch in which the server
 * refused every request that could change something, the state read back through the API must
 * be exactly what it was before the batch.
 *
 * WebSocket: refused handshakes (bad queries, tokens, ids) and, on sockets of every role, every
 * client message type of protocol/messages.ts broken in the same ways, plus non-JSON, binary,
 * oversized and invalid UTF-8 frames. Every frame is answered with an `error` (or the socket is
 * closed with the protocol's code for it), and nothing in the game changes.
 *
 * Randomness is seeded: a failure names its seed, and the same seed replays the same requests.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { CLOSE_CODES, MAX_CLIENT_FRAME_BYTES } from '../../protocol/index.js';
import { ADMIN_COOKIE } from '../domain/auth/admin-auth.js';

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

const HUGE_STRING = 'x'.repeat(100_000);

/** JSON values of every type and size, for "wrong type" and "huge value" cases. */
const WEIRD_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.0, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, -2147483649,
  '', ' ', 'a', '0', 'true', 'null', '\u0000', '\ud800', '😀'.repeat(300), 'é\u0301', '<script>alert(1)</script>',
  "'; drop table sessions; --", '../../etc/passwd', '%00', '\r\nX-Injected: 1', HUGE_STRING.slice(0, 5_000),
  [], [1, 2, 3], [null], ['a'.repeat(1000)], {}, { a: 1 }, { __proto__: { polluted: true } }, { constructor: { prototype: { polluted: true } } },
  new Array(2_000).fill(0),
];

/** Bodies that are not JSON at all, or not the JSON they claim to be. */
const MALFORMED_BODIES: (string | Buffer)[] = [
  '{', '}', '{"a":}', '{"a":1,}', "{'a':1}", 'NaN', '{"a":NaN}', 'undefined', '[', '"unterminated', '{"a":1}{"b":2}',
  '\u0000', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}',
  '['.repeat(5_000) + ']'.repeat(5_000), '{"a":'.repeat(2_000) + '1' + '}'.repeat(2_000),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // UTF-8 BOM, then {}
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), // invalid UTF-8 in a string
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), // overlong encoding
  Buffer.from('{"a":1}', 'utf16le'),
  Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]), // the start of a gzip stream
];

const ODD_CONTENT_TYPES = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'multipart/form-data',
  'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/JSON', 'application/json;;;',
  'application/octet-stream', 'application/xml', '*/*', '', 'json', 'application/json, text/plain',
];

const BAD_IDS = [
  '00000000-0000-0000-0000-000000000000', '6f1c1d6e-3b9a-4f43-9e43-3f1c7c2a9b11', 'not-an-id', '0', '-1', '1e309', 'null',
  'undefined', '%20', '%00', '%zz', '%', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%E2%82%AC', '%F0%9F%98%80', '%C0%AF',
  'a'.repeat(300), 'a'.repeat(5_000), '__proto__', 'constructor', "'%20or%201=1", '%3Cscript%3E',
];

const QUERY_VALUES = ['', '0', '-1', '1.5', 'true', 'x', 'a'.repeat(5_000), '%00', '%zz', '%E2%82%AC', '[]', '{}', 'null', '9'.repeat(400)];

// ---------------------------------------------------------------------------------------------
// The OpenAPI document

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

export interface Operation {
  method: string;
  /** With `{param}` placeholders. */
  path: string;
  pathParams: string[];
  queryParams: { name: string; required: boolean; schema: JsonSchema }[];
  body: JsonSchema | null;
}

export function operationsOf(document: { paths: Record<string, Record<string, any>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters: any[] = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required, schema: p.schema ?? {} })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

/** A value that fits the schema most of the time (the fuzz then breaks one thing about it). */
function plausible(schema: JsonSchema, rng: Rng, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return rng.pick(schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return plausible(rng.pick(variants), rng, depth + 1);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (depth < 4 && (schema.required?.includes(key) || rng.chance(0.6))) out[key] = plausible(sub, rng, depth + 1);
      }
      return out;
    }
    case 'array':
      return depth < 4 && schema.items ? Array.from({ length: rng.int(4) }, () => plausible(schema.items!, rng, depth + 1)) : [];
    case 'string': {
      if (schema.format === 'email') return `fuzz${rng.int(1e6)}@example.com`;
      if (schema.format === 'uri') return 'https://example.com/x';
      if (schema.format === 'date-time') return new Date(1_700_000_000_000 + rng.int(1e9)).toISOString();
      const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12));
      return 'f'.repeat(length);
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = schema.maximum ?? min + 100;
      return Math.floor(min + rng.next() * Math.max(0, Math.min(max - min, 1000)));
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return rng.pick(WEIRD_VALUES);
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface FuzzRequest {
  method: string;
  /** Already encoded as sent. */
  target: string;
  /** In order, duplicates kept. */
  headers: [string, string][];
  body: Buffer;
  /** False when nothing about the request is wrong enough that it must be refused. */
  faulty: boolean;
  /** What was done to it, for failure reports. */
  faults: string[];
}

export interface IdPool {
  all: string[];
}

function encodeSegment(value: string): string {
  // BAD_IDS carry their own (sometimes broken) percent-encoding; real ids are plain.
  return /%|\.\./.test(value) ? value : encodeURIComponent(value);
}

/** Routes anyone may call (every other route needs an admin token). */
const PUBLIC_PATHS = /^\/(api\/admin\/log(in|out)|api\/public-url|api\/sessions\/|api\/player\/|healthz|readyz|media\/|api\/uploads)/;

type Fault = 'auth' | 'path' | 'query' | 'body' | 'content-type' | 'framing' | 'method';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The JSON type of a value, as a schema names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A value of a type the schema does not allow (null when the schema allows anything we have). */
function wrongTypeFor(schema: JsonSchema | undefined, rng: Rng): { value: unknown } | null {
  if (!schema || schema.anyOf || schema.oneOf || schema.type === undefined) return null;
  const allowed = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (allowed.has('number')) allowed.add('integer');
  const candidates = WEIRD_VALUES.filter((v) => !allowed.has(jsonType(v)));
  return candidates.length > 0 ? { value: rng.pick(candidates) } : null;
}

/**
 * Builds one request for `op` with one to three faults. Faults are "refusing" (the server must
 * answer 4xx: no or a bad token, a bad id, a body of the wrong shape, a framing error) or noise a
 * server may rightly ignore (odd Accept, forwarded headers, duplicated identical headers...).
 * A request that could change something always carries a refusing fault, so a batch of them
 * must leave the state as it was.
 */
export function makeRequest(op: Operation, ids: IdPool, token: string, rng: Rng): FuzzRequest {
  const faults: string[] = [];
  let refusing = false;
  const refuse = (fault: string) => {
    faults.push(fault);
    refusing = true;
  };
  const mutating = op.method !== 'GET' && op.method !== 'HEAD';
  const possible: Fault[] = ['auth', 'framing', 'method'];
  if (op.pathParams.length > 0) possible.push('path', 'path', 'path');
  if (op.queryParams.length > 0) possible.push('query', 'query');
  if (op.body) possible.push('body', 'body', 'body', 'body', 'content-type');
  const chosen = new Set<Fault>();
  const count = mutating ? 1 + rng.int(3) : rng.int(3);
  for (let i = 0; i < count; i++) chosen.add(rng.pick(possible));

  let method = op.method;
  if (chosen.has('method')) {
    // Methods no route answers to: another route's method on the same path could be a valid call.
    method = rng.pick(['OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'get', 'Post']);
    refuse(`method ${method}`);
  }

  const badPathParam = chosen.has('path') ? rng.pick(op.pathParams) : null;
  let target = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === badPathParam) {
      const bad = rng.pick(BAD_IDS);
      refuse(`${name}=${bad.slice(0, 40)}`);
      return encodeSegment(bad);
    }
    // Ids that exist, though not always of the kind the route wants.
    return encodeSegment(ids.all.length > 0 ? rng.pick(ids.all) : rng.pick(BAD_IDS));
  });
  if (chosen.has('path') && rng.chance(0.15)) {
    target += rng.pick(['/', '//', '/extra', '/..', '%2F', ';x=1']);
    faults.push('path suffix');
  }

  const query: string[] = [];
  for (const param of op.queryParams) {
    if (chosen.has('query')) {
      const roll = rng.int(5);
      faults.push(`query ${param.name}#${roll}`);
      if (roll === 0) continue; // missing
      const value = roll === 1 ? rng.pick(QUERY_VALUES) : String(plausible(param.schema, rng));
      query.push(`${encodeURIComponent(param.name)}=${encodeSegment(value)}`);
      if (roll === 2) query.push(`${encodeURIComponent(param.name)}=${rng.pick(QUERY_VALUES)}`); // duplicated
    } else if (param.required || rng.chance(0.5)) {
      query.push(`${encodeURIComponent(param.name)}=${encodeURIComponent(String(plausible(param.schema, rng)))}`);
    }
  }
  if (chosen.has('query') && rng.chance(0.3)) query.push(rng.pick(['__proto__[x]=1', 'a[]=1&a[]=2', '=', '&&', 'x=%', 'x'.repeat(3000) + '=1']));
  if (query.length > 0) target += `?${query.join('&')}`;

  const headers: [string, string][] = [['host', '127.0.0.1'], ['connection', 'close']];
  // Filled in at the end: a mutating request without a refusing fault by then gets no token.
  const authAt = headers.length;

  let body: Buffer = Buffer.alloc(0);
  let contentType: string | null = null;
  if (op.body) {
    contentType = 'application/json';
    const value = plausible(op.body, rng) as Record<string, unknown>;
    const properties = op.body.properties ?? {};
    const keys = Object.keys(properties);
    if (chosen.has('body')) {
      const roll = rng.int(8);
      if (roll <= 1 && keys.length > 0) {
        const key = rng.pick(keys);
        const wrong = wrongTypeFor(properties[key], rng);
        value[key] = wrong ? wrong.value : rng.pick(WEIRD_VALUES);
        if (wrong) refuse(`body.${key} wrong type`);
        else faults.push(`body.${key} odd`);
        body = Buffer.from(JSON.stringify(value));
      } else if (roll === 2 && (op.body.required ?? []).length > 0) {
        const key = rng.pick(op.body.required!);
        delete value[key];
        refuse(`body.${key} missing`);
        body = Buffer.from(JSON.stringify(value));
      } else if (roll === 3 && keys.length > 0) {
        const key = rng.pick(keys);
        const schema = properties[key];
        if (schema.maxLength !== undefined) {
          value[key] = HUGE_STRING;
          refuse(`body.${key} huge string`);
        } else if (schema.maximum !== undefined) {
          value[key] = rng.pick([1e308, 2 ** 64]);
          refuse(`body.${key} huge number`);
        } else {
          value[key] = rng.pick([HUGE_STRING, 1e308, -1e308, 1e-320]);
          faults.push(`body.${key} huge`);
        }
        body = Buffer.from(JSON.stringify(value));
      } else if (roll === 4 && op.body.type === 'object') {
        const notObject = rng.pick(WEIRD_VALUES.filter((v) => jsonType(v) !== 'object'));
        body = Buffer.from(JSON.stringify(notObject));
        // null is how a client says "no body" to a route whose body is optional (POST /api/media/upload).
        if (notObject === null) faults.push('body null');
        else refuse('body not an object');
      } else if (roll === 5) {
        const malformed = rng.pick(MALFORMED_BODIES);
        body = typeof malformed === 'string' ? Buffer.from(malformed) : malformed;
        // Only what is not JSON at all must be refused: deep nesting or a BOM before {} may be read.
        if (typeof malformed === 'string' && !parses(malformed)) refuse('body malformed');
        else faults.push('body odd JSON');
      } else if (roll === 6) {
        body = Buffer.alloc(0);
        refuse('body empty');
      } else {
        body = Buffer.from(JSON.stringify({ ...value, __proto__: { isAdmin: true }, extra: rng.pick(WEIRD_VALUES) }));
        faults.push('body extra keys');
      }
    } else {
      body = Buffer.from(JSON.stringify(value));
    }
  }
  if (chosen.has('content-type') && op.body) {
    const odd = rng.pick(ODD_CONTENT_TYPES);
    contentType = odd;
    // Types Fastify has no parser for are refused (415); JSON spelled oddly may rightly be read.
    if (/^(text\/plain|application\/x-www|multipart|application\/octet|application\/xml)/.test(odd)) refuse(`content-type ${odd}`);
    else faults.push(`content-type ${odd}`);
  }
  if (contentType !== null) headers.push(['content-type', contentType]);

  if (chosen.has('framing')) {
    const variant = rng.int(9);
    const fault = `framing#${variant}`;
    switch (variant) {
      case 0:
        headers.push(['content-type', 'text/plain']); // a second, different content type
        faults.push(fault);
        break;
      case 1:
        headers.push(['x-fuzz', 'a'], ['x-fuzz', 'b'], ['user-agent', ''], ['user-agent', 'two']);
        faults.push(fault);
        break;
      case 2:
        headers.push(['content-length', String(body.length + 1)]); // two different lengths
        refuse(fault);
        break;
      case 3:
        headers.push(['transfer-encoding', 'chunked']); // with a content-length
        refuse(fault);
        break;
      case 4:
        headers.splice(0, 1); // no Host
        refuse(fault);
        break;
      case 5:
        headers.push(['x-fuzz', 'y'.repeat(20_000)]); // headers too large
        refuse(fault);
        break;
      case 6:
        headers.push(['content-encoding', rng.pick(['gzip', 'br', 'deflate', 'identity, gzip', 'x-unknown'])]);
        faults.push(fault);
        break;
      case 7:
        headers.push(['x-forwarded-host', rng.pick(['', 'evil.example', 'a'.repeat(500), '[::1]:99999'])], ['x-forwarded-proto', 'gopher']);
        faults.push(fault);
        break;
      default:
        headers.push(['accept', rng.pick(['', '*/*;q=abc', 'text/html', 'application/json;q=0', 'x'.repeat(2000)])], ['accept-charset', 'utf-7']);
        faults.push(fault);
    }
  }
  if (body.length > 0 || mutating) headers.push(['content-length', String(body.length)]);

  const isPublic = PUBLIC_PATHS.test(op.path);
  if (mutating && !refusing && isPublic) {
    method = 'PROPFIND';
    refuse(`method ${method}`);
  }
  if (chosen.has('auth') || (mutating && !refusing)) {
    const variant = rng.int(6);
    const auth = [
      [],
      [['authorization', 'Bearer ']],
      [['authorization', 'Bearer not-a-token']],
      [['authorization', 'Basic YWRtaW46YWRtaW4=']],
      [['authorization', 'Bearer x'], ['authorization', `Bearer ${token}`]], // the first one counts
      [['authorization', `Bearer ${'t'.repeat(6_000)}`], ['cookie', `${ADMIN_COOKIE}=garbage`]],
    ][variant] as [string, string][];
    headers.splice(authAt, 0, ...auth);
    // Public routes answer without a token: only admin routes must refuse these.
    if (!isPublic) refuse(`auth#${variant}`);
    else faults.push(`auth#${variant}`);
  } else {
    headers.splice(authAt, 0, ['authorization', `Bearer ${token}`]);
  }

  return { method, target, headers, body, faulty: refusing, faults };
}

export interface RawResponse {
  status: number | null;
  /** The first bytes of the response, for failure reports. */
  head: string;
}

/** One request on its own TCP connection, exactly as built (duplicates, broken encodings and all). */
export function sendRaw(port: number, request: FuzzRequest, timeoutMs = 30_000): Promise<RawResponse> {
  const head = `${request.method} ${request.target} HTTP/1.1\r\n${request.headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : null, head: text.slice(0, 300) });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), request.body]));
    });
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // The status line is all we need; the rest of a large reply is not worth waiting for.
      if (Buffer.concat(chunks).includes('\r\n\r\n')) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

// ---------------------------------------------------------------------------------------------
// Reading the state back

export interface StateReader {
  /** Everything an administrator can read, as one comparable string. */
  read(): Promise<string>;
  /** Every id the API lists, for the fuzz to use (and misuse). */
  ids(): Promise<string[]>;
}

async function getJson(baseUrl: string, token: string, path: string): Promise<unknown> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  // A watched session may be gone (a DELETE the server accepted): that is state too.
  if (res.status === 404) return { status: 404 };
  if (res.status !== 200) throw new Error(`reading ${path} failed: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

export function apiStateReader(baseUrl: string, token: string, watchedSessions: string[]): StateReader {
  const lists = ['/api/admin/sessions', '/api/admin/questions', '/api/admin/players', '/api/admin/auditoriums', '/api/admin/media'];
  const perSession = (id: string) => [
    `/api/admin/sessions/${id}`, `/api/admin/sessions/${id}/items`, `/api/admin/sessions/${id}/draws`, `/api/admin/sessions/${id}/media`,
  ];
  return {
    async read() {
      const paths = [...lists, ...watchedSessions.flatMap(perSession)];
      const bodies = await Promise.all(paths.map((p) => getJson(baseUrl, token, p)));
      return JSON.stringify(paths.map((p, i) => [p, bodies[i]]));
    },
    async ids() {
      const [sessions, questions, players, media] = (await Promise.all(lists.filter((l) => !l.includes('auditoriums')).map((p) => getJson(baseUrl, token, p)))) as {
        id: string;
      }[][];
      const items = await Promise.all(watchedSessions.map((id) => getJson(baseUrl, token, `/api/admin/sessions/${id}/items`)));
      const rows = [...sessions, ...questions, ...players, ...media, ...items.flatMap((list) => (Array.isArray(list) ? list : []))];
      return rows.map((row: { id: string }) => row.id);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The HTTP run

export interface Failure {
  request: string;
  problem: string;
}

export interface HttpFuzzReport {
  requests: number;
  statuses: Record<string, number>;
  /** Refusable requests the server accepted anyway (2xx): validation gaps worth a look. */
  acceptedFaulty: string[];
  checkedBatches: number;
  uncheckedBatches: number;
  failures: Failure[];
}

export interface HttpFuzzOptions {
  baseUrl: string;
  /** An admin token for the fuzz's own requests; asked again when one was logged out by the fuzz. */
  token: () => Promise<string>;
  operations: Operation[];
  state: StateReader;
  requests: number;
  seed: number;
  concurrency?: number;
  batchSize?: number;
  /**
   * Sends a request in-process (Fastify's inject), several times cheaper than a TCP connection.
   * Requests only a real socket can carry (duplicated headers, framing faults, oversized heads)
   * and a share of the others still go over TCP.
   */
  inject?: (request: FuzzRequest) => Promise<RawResponse>;
}

/** True when the request must travel over a real socket to be what it claims to be. */
function needsSocket(request: FuzzRequest, rng: Rng): boolean {
  const names = request.headers.map(([name]) => name.toLowerCase());
  if (new Set(names).size !== names.length || !names.includes('host')) return true;
  if (request.faults.some((f) => f.startsWith('framing') || f.startsWith('method'))) return true;
  // inject parses the URL as a browser would and resolves dot segments ('/sessions/%2e%2e/questions/x'
  // became '/questions/x'); a server gets them as sent.
  if (/%2e|\.\./i.test(request.target)) return true;
  const headBytes = request.target.length + request.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return headBytes > 4_000 || rng.chance(0.2);
}

export function describeRequest(r: FuzzRequest): string {
  return `${r.method} ${r.target.slice(0, 160)} [${r.faults.join(', ')}]`;
}

/** docs/MEDIA.md: temporary S3 credentials are not offered, and the route says so with 501. */
const DESIGNED_501 = /^\/api\/media\/s3\/sts(\?|$)/;

export async function fuzzHttp(options: HttpFuzzOptions): Promise<HttpFuzzReport> {
  const { baseUrl, operations, state, seed } = options;
  let token = await options.token();
  const port = Number(new URL(baseUrl).port);
  const rng = new Rng(seed);
  const concurrency = options.concurrency ?? 24;
  const batchSize = options.batchSize ?? 100;
  const report: HttpFuzzReport = { requests: 0, statuses: {}, acceptedFaulty: [], checkedBatches: 0, uncheckedBatches: 0, failures: [] };
  const ids: IdPool = { all: await state.ids() };
  let before = await state.read();

  while (report.requests < options.requests) {
    const batch = Array.from({ length: Math.min(batchSize, options.requests - report.requests) }, () =>
      makeRequest(rng.pick(operations), ids, token, rng),
    );
    const viaSocket = batch.map((request) => !options.inject || needsSocket(request, rng));
    const responses: RawResponse[] = new Array(batch.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < batch.length) {
          const i = next++;
          responses[i] = viaSocket[i] ? await sendRaw(port, batch[i]) : await options.inject!(batch[i]);
        }
      }),
    );
    report.requests += batch.length;

    let changesAllowed = false;
    batch.forEach((request, i) => {
      const { status, head } = responses[i];
      report.statuses[String(status ?? 'none')] = (report.statuses[String(status ?? 'none')] ?? 0) + 1;
      if (status === null) report.failures.push({ request: describeRequest(request), problem: `no HTTP response: ${JSON.stringify(head)}` });
      else if (status >= 500 && !(status === 501 && DESIGNED_501.test(request.target))) report.failures.push({ request: describeRequest(request), problem: `answered ${status}: ${head.slice(0, 200)}` });
      const mutating = !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(request.method.toUpperCase());
      if (mutating && status !== null && status < 400) {
        changesAllowed = true;
        if (request.faulty && report.acceptedFaulty.length < 50) report.acceptedFaulty.push(`${status} ${describeRequest(request)}`);
      }
    });

    const after = await state.read();
    if (changesAllowed) {
      report.uncheckedBatches++;
      ids.all = await state.ids();
      token = await options.token();
    } else {
      report.checkedBatches++;
      if (after !== before) {
        report.failures.push({ request: `batch ending at request ${report.requests}`, problem: `refused requests changed the state:\n${firstDifference(before, after)}` });
      }
    }
    before = after;
  }
  return report;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `before: …${a.slice(Math.max(0, i - 120), i + 120)}…\nafter:  …${b.slice(Math.max(0, i - 120), i + 120)}…`;
}

// ---------------------------------------------------------------------------------------------
// The WebSocket run

export interface WsTarget {
  baseUrl: string;
  sessionId: string;
  adminToken: string;
  /** Registered players of the session. */
  players: { id: string; playerToken: string }[];
  /** The question open in the session. */
  questionId: string;
}

export interface WsFuzzReport {
  handshakes: number;
  frames: number;
  closeCodes: Record<string, number>;
  failures: Failure[];
}

const wsUrl = (baseUrl: string, query: string) => `${baseUrl.replace(/^http/, 'ws')}/ws?${query}`;

/** Handshakes that must be refused with the protocol's close codes (never an internal error). */
function badHandshake(target: WsTarget, rng: Rng): string {
  const p = target.players[0];
  const variants = [
    '',
    'type=player',
    'type=ghost&sessionId=x',
    `type=display&sessionId=${rng.pick(BAD_IDS)}`,
    `type=admin&sessionId=${target.sessionId}`,
    `type=admin&sessionId=${target.sessionId}&token=${rng.pick(BAD_IDS)}`,
    `type=player&sessionId=${target.sessionId}&playerId=${p.id}&playerToken=${rng.pick(BAD_IDS)}`,
    `type=player&sessionId=${target.sessionId}&playerId=${rng.pick(BAD_IDS)}&playerToken=${p.playerToken}`,
    `type=player&sessionId=${rng.pick(BAD_IDS)}&playerId=${p.id}&playerToken=${p.playerToken}`,
    `type=player&type=admin&sessionId=${target.sessionId}&playerId=${p.id}&playerToken=${p.playerToken}&token=x`,
    `type=display&sessionId=${target.sessionId}&sessionId=${rng.pick(BAD_IDS)}`,
    `type=${'a'.repeat(4_000)}`,
  ];
  return rng.pick(variants);
}

/** Frames no client of `role` may get accepted: every message type, broken. */
function badFrame(role: 'admin' | 'display' | 'player', target: WsTarget, rng: Rng): string | Buffer | { binary: Buffer } {
  const otherQuestion = rng.pick(['', 'q-stale', ...BAD_IDS]);
  const answer = { type: 'submit_answer', questionId: target.questionId, selectedIndex: 1 };
  const variants: (() => string | Buffer | { binary: Buffer })[] = [
    () => JSON.stringify({ ...answer, selectedIndex: rng.pick([-1, 4, 1.5, '1', null, true, 1e308, [1], {}]) }),
    () => JSON.stringify({ ...answer, questionId: rng.pick([otherQuestion, 7, null, [], {}]) }),
    () => JSON.stringify({ type: 'submit_answer' }),
    () => JSON.stringify({ type: 'submit_answer', questionId: target.questionId }),
    () => JSON.stringify({ type: 'admin_toggle_autorotate', autoRotate: rng.pick(['true', 1, 0, null, 'yes', []]) }),
    () => JSON.stringify({ type: 'admin_toggle_autorotate' }),
    () => JSON.stringify({ type: rng.pick(['ADMIN_PAUSE', 'admin_pause ', 'admin-next-question', 'admin_next', 'Submit_Answer', '', 'session_state', 'question_end', '__proto__', 'toString']) }),
    () => JSON.stringify({ type: rng.pick([null, 1, true, [], { type: 'admin_pause' }]) }),
    () => JSON.stringify(rng.pick(WEIRD_VALUES.filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)))),
    () => rng.pick(MALFORMED_BODIES.filter((b): b is string => typeof b === 'string' && b.length < MAX_CLIENT_FRAME_BYTES)),
    () => ({ binary: Buffer.from(JSON.stringify(answer)) }),
    () => JSON.stringify({ type: 'submit_answer', questionId: 'x'.repeat(12_000), selectedIndex: 1 }),
  ];
  // Valid admin commands (admin sockets) and valid answers (player sockets) would be accepted.
  if (role !== 'player') variants.push(() => JSON.stringify(answer));
  if (role !== 'admin') variants.push(() => JSON.stringify({ type: rng.pick(['admin_pause', 'admin_next_question']) }), () => JSON.stringify({ type: 'admin_toggle_autorotate', autoRotate: true }));
  return rng.pick(variants)();
}

/** Frames the socket is closed for, with the code it must be closed with. */
const CLOSING_FRAMES: { frame: () => Buffer | string; code: number }[] = [
  { frame: () => JSON.stringify({ type: 'submit_answer', questionId: 'x'.repeat(MAX_CLIENT_FRAME_BYTES), selectedIndex: 1 }), code: CLOSE_CODES.messageTooBig },
  { frame: () => Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]), code: 1007 }, // invalid UTF-8 in a text frame
];

function openSocket(url: string): Promise<{ ws: WebSocket; messages: any[]; closed: Promise<{ code: number; reason: string }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { skipUTF8Validation: true });
    const messages: any[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    ws.once('open', () => resolve({ ws, messages, closed }));
    ws.once('error', reject);
  });
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

export async function fuzzWebSocket(target: WsTarget, options: { sockets: number; seed: number }): Promise<WsFuzzReport> {
  const rng = new Rng(options.seed);
  const report: WsFuzzReport = { handshakes: 0, frames: 0, closeCodes: {}, failures: [] };
  const countClose = (code: number) => (report.closeCodes[code] = (report.closeCodes[code] ?? 0) + 1);

  // Refused handshakes.
  await Promise.all(
    Array.from({ length: options.sockets }, async () => {
      const query = badHandshake(target, rng);
      report.handshakes++;
      try {
        const { closed } = await openSocket(wsUrl(target.baseUrl, query));
        const { code } = await closed;
        countClose(code);
        if (![CLOSE_CODES.badRequest, CLOSE_CODES.unauthorized, CLOSE_CODES.notFound].includes(code as 4400)) {
          report.failures.push({ request: `ws?${query.slice(0, 120)}`, problem: `closed with ${code}` });
        }
      } catch (err) {
        report.failures.push({ request: `ws?${query.slice(0, 120)}`, problem: `handshake failed: ${(err as Error).message}` });
      }
    }),
  );

  // Sockets of every role, each sending a burst of broken frames (within the rate allowance).
  const roles = ['player', 'display', 'admin'] as const;
  await Promise.all(
    Array.from({ length: options.sockets }, async (_, n) => {
      const role = roles[n % roles.length];
      const player = target.players[n % target.players.length];
      const query = new URLSearchParams(
        role === 'player'
          ? { type: 'player', sessionId: target.sessionId, playerId: player.id, playerToken: player.playerToken }
          : role === 'admin'
            ? { type: 'admin', sessionId: target.sessionId, token: target.adminToken }
            : { type: 'display', sessionId: target.sessionId },
      );
      const socket = await openSocket(wsUrl(target.baseUrl, String(query)));
      if (!(await waitUntil(() => socket.messages.some((m) => m.type === 'session_state'), 20_000))) {
        report.failures.push({ request: `${role} socket`, problem: 'no session_state after joining' });
      }
      const frames = 5 + rng.int(12);
      const closing = rng.chance(0.15) ? rng.pick(CLOSING_FRAMES) : null;
      const sent: string[] = [];
      for (let i = 0; i < frames; i++) {
        const frame = badFrame(role, target, rng);
        sent.push(typeof frame === 'string' ? frame.slice(0, 80) : 'binary');
        if (typeof frame === 'object' && 'binary' in frame) socket.ws.send(frame.binary, { binary: true });
        else socket.ws.send(frame);
      }
      report.frames += frames;
      const errorsBefore = () => socket.messages.filter((m) => m.type === 'error').length;
      // One `error` per frame, in order; nothing accepted.
      if (!(await waitUntil(() => errorsBefore() >= frames, 20_000))) {
        report.failures.push({ request: `${role}: ${sent.join(' | ').slice(0, 300)}`, problem: `${errorsBefore()} error replies to ${frames} frames` });
      }
      const accepted = socket.messages.find((m) => m.type === 'answer_accepted' || m.type === 'question_end');
      if (accepted) report.failures.push({ request: `${role} frames`, problem: `a broken frame was acted on: ${JSON.stringify(accepted)}` });
      if (closing) {
        // As a text frame even when given bytes (invalid UTF-8 is only invalid in a text frame).
        socket.ws.send(closing.frame(), { binary: false });
        report.frames++;
      } else {
        socket.ws.close(1000);
      }
      const expected = closing?.code ?? 1000;
      const code = await Promise.race([socket.closed.then((c) => c.code), new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000))]);
      if (code === null) {
        socket.ws.terminate();
        report.failures.push({ request: `${role} socket`, problem: `not closed within 20 s (expected ${expected})` });
      } else {
        countClose(code);
        if (code !== expected) report.failures.push({ request: `${role} socket`, problem: `closed with ${code}, expected ${expected}` });
      }
    }),
  );
  return report;
}

/** The fuzz's HTTP requests: one operation broken in one to three ways, sent raw over TCP. */
import net from 'node:net';
import { ADMIN_COOKIE } from '../domain/auth/admin-auth.js';
import { type Operation, plausible, wrongTypeFor } from './fuzz-openapi.js';
import { BAD_IDS, HUGE_STRING, jsonType, MALFORMED_BODIES, ODD_CONTENT_TYPES, parses, QUERY_VALUES, type Rng, WEIRD_VALUES } from './fuzz-values.js';

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


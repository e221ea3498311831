/** The fuzz's HTTP run: parallel batches of broken requests, the state read back after each refused batch. */
import { type Operation } from './fuzz-openapi.js';
import { type FuzzRequest, type IdPool, makeRequest, type RawResponse, sendRaw } from './fuzz-requests.js';
import { Rng } from './fuzz-values.js';

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


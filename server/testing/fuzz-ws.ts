/** The fuzz's WebSocket run: refused handshakes and broken frames on sockets of every role. */
import WebSocket from 'ws';
import { CLOSE_CODES, MAX_CLIENT_FRAME_BYTES } from '../../protocol/index.js';
import type { Failure } from './fuzz-http.js';
import { BAD_IDS, MALFORMED_BODIES, Rng, WEIRD_VALUES } from './fuzz-values.js';

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

/**
 * The generator's sockets: phones, one display and one admin per session. Every arrival is
 * stamped with performance.now() before anything else is done with the frame, so the generator's
 * own parsing does not count against the server. Timer ticks are skipped unparsed.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const CONNECT_TIMEOUT_MS = 20_000;

/**
 * Pongs go out once the frames read in the same turn have been stamped, not in the middle of
 * them: each phone answers Marquee's ping behind a question (server/transport/ws/link-delay.ts) on
 * its own CPU, but here thousands of phones share one process, and a pong written per socket as
 * its question was read held up the reading of every phone after it (at 10,000 phones the fan-out
 * measured twice the server's, issue 26). Still answered within the turn, as ws would.
 */
const pongsDue: { ws: WebSocket; data: Buffer }[] = [];
function pongLater(ws: WebSocket, data: Buffer): void {
  if (pongsDue.push({ ws, data }) > 1) return;
  setImmediate(() => {
    for (const { ws: socket, data: payload } of pongsDue.splice(0)) if (socket.readyState === WebSocket.OPEN) socket.pong(payload);
  });
}

/**
 * Opens a socket and resolves once the server's first frame (its `session_state`) has arrived.
 * Frames reach `onFrame` undecoded: most of them (ticks, leaderboards, question ends at phones)
 * are recognised by their first bytes and never parsed, so thousands of phones in one process
 * cost the generator as little as possible per frame.
 */
export function openSocket(url: string, onFrame: (frame: Buffer, atMs: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true, handshakeTimeout: CONNECT_TIMEOUT_MS, autoPong: false });
    ws.on('ping', (data: Buffer) => pongLater(ws, data));
    let settled = false;
    const timer = setTimeout(() => fail(new Error('no session_state within the connect timeout')), CONNECT_TIMEOUT_MS);
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.terminate();
      reject(err);
    };
    ws.on('message', (data: Buffer) => {
      const atMs = performance.now();
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(ws);
      }
      onFrame(data, atMs);
    });
    ws.on('error', (err) => fail(err));
    ws.on('close', (code, reason) => fail(new Error(`closed ${code} ${reason.toString()}`)));
  });
}

const TYPE_PREFIX = '{"type":"';
const OPEN_QUESTION = '"phase":"question"';

/** The message type read from the frame's first bytes ('' when `type` is not the first key). */
export function frameType(frame: Buffer): string {
  if (frame.toString('latin1', 0, TYPE_PREFIX.length) !== TYPE_PREFIX) return '';
  const end = frame.indexOf(34 /* " */, TYPE_PREFIX.length);
  return end < 0 ? '' : frame.toString('latin1', TYPE_PREFIX.length, end);
}

/** Parses the frame only for the types a phone acts on; others come back as null. */
function parseIfWanted(frame: Buffer, wanted: readonly string[]): { type: string; [key: string]: any } | null {
  const type = frameType(frame);
  if (type === '') return JSON.parse(frame.toString()); // unknown layout: parse to be safe
  if (!wanted.includes(type)) return null;
  if (type === 'session_state' && frame.indexOf(OPEN_QUESTION) < 0) return null;
  return JSON.parse(frame.toString());
}

const PHONE_TYPES = ['session_state', 'answer_accepted', 'answer_result', 'error'] as const;
const SCREEN_TYPES = ['question_end', 'error'] as const;

/** What one phone saw in the current round (generator clock, ms). NaN: did not happen. */
export class Phone {
  ws: WebSocket | null = null;
  questionId: string | null = null;
  questionAtMs = Number.NaN;
  answerSentAtMs = Number.NaN;
  acceptedAtMs = Number.NaN;
  resultAtMs = Number.NaN;
  errors = 0;
  /** Closed by the server (or the network) after connecting. */
  dropped = false;

  constructor(
    readonly playerId: string,
    readonly sessionIndex: number,
    private readonly events: { question(phone: Phone): void; result(phone: Phone): void },
  ) {}

  onFrame = (frame: Buffer, atMs: number): void => {
    const message = parseIfWanted(frame, PHONE_TYPES);
    switch (message?.type) {
      case 'session_state':
        if (message.phase === 'question' && message.question && message.question.id !== this.questionId) {
          this.questionId = message.question.id;
          this.questionAtMs = atMs;
          this.answerSentAtMs = this.acceptedAtMs = this.resultAtMs = Number.NaN;
          this.events.question(this);
        }
        break;
      case 'answer_accepted':
        if (message.questionId === this.questionId) this.acceptedAtMs = atMs;
        break;
      case 'answer_result':
        if (message.questionId === this.questionId && Number.isNaN(this.resultAtMs)) {
          this.resultAtMs = atMs;
          this.events.result(this);
        }
        break;
      case 'error':
        this.errors++;
        break;
    }
  };

  answer(selectedIndex: number): void {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.questionId) return;
    this.answerSentAtMs = performance.now();
    this.ws.send(JSON.stringify({ type: 'submit_answer', questionId: this.questionId, selectedIndex }));
  }
}

/** A display (and, with `admin`, an admin socket): records when each question ends on screen. */
export class Screen {
  ws: WebSocket | null = null;
  questionEndAtMs = new Map<string, number>();
  errors: string[] = [];

  onFrame = (frame: Buffer, atMs: number): void => {
    const message = parseIfWanted(frame, SCREEN_TYPES);
    if (!message) return;
    if (message.type === 'question_end' && !this.questionEndAtMs.has(message.questionId)) this.questionEndAtMs.set(message.questionId, atMs);
    if (message.type === 'error') this.errors.push(String(message.message));
  };

  send(message: object): number {
    const at = performance.now();
    this.ws?.send(JSON.stringify(message));
    return at;
  }
}

/** Resolves when `tick` has been called `target` times, or with false after `timeoutMs`. */
export class Countdown {
  private count = 0;
  private resolve: (done: boolean) => void = () => {};
  readonly done: Promise<boolean>;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly target: number, timeoutMs: number) {
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
    if (target <= 0) this.resolve(true);
    else this.timer = setTimeout(() => this.resolve(false), timeoutMs);
  }

  tick(): void {
    if (++this.count === this.target) {
      clearTimeout(this.timer);
      this.resolve(true);
    }
  }
}

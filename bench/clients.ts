/**
 * The generator's sockets: phones, one display and one admin per session. Every arrival is
 * stamped with performance.now() before anything else is done with the frame, so the generator's
 * own parsing does not count against the server. Timer ticks are skipped unparsed.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const CONNECT_TIMEOUT_MS = 20_000;

/** Opens a socket and resolves once the server's first frame (its `session_state`) has arrived. */
export function openSocket(url: string, onFrame: (text: string, atMs: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: CONNECT_TIMEOUT_MS });
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
      const text = data.toString();
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(ws);
      }
      onFrame(text, atMs);
    });
    ws.on('error', (err) => fail(err));
    ws.on('close', (code, reason) => fail(new Error(`closed ${code} ${reason.toString()}`)));
  });
}

const isTick = (text: string) => text.startsWith('{"type":"timer_tick"');

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

  onFrame = (text: string, atMs: number): void => {
    if (isTick(text)) return;
    const message = JSON.parse(text);
    switch (message.type) {
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

  onFrame = (text: string, atMs: number): void => {
    if (isTick(text)) return;
    const message = JSON.parse(text);
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

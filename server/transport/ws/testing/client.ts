/**
 * A real `ws` client for the socket tests: keeps every raw text frame (to check what crossed the
 * wire, e.g. that no frame carried `correctIndex` early) and lets a test wait for a message.
 */
import WebSocket from 'ws';
import type { ServerMessage } from '../../../../protocol/index.js';

// Tests read fields of every message kind freely.
export type AnyMessage = ServerMessage & Record<string, any>;

export interface Closed {
  code: number;
  reason: string;
}

export class TestSocket {
  readonly frames: string[] = [];
  readonly messages: AnyMessage[] = [];
  readonly closed: Promise<Closed>;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.frames.push(text);
      this.messages.push(JSON.parse(text));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens /ws with the query; resolves once the socket is open (it may be closed right after by a refusal). */
  static async open(baseUrl: string, query: Record<string, string>, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws?${new URLSearchParams(query)}`;
    const client = new TestSocket(new WebSocket(url, options));
    await new Promise<void>((resolve, reject) => {
      client.ws.once('open', () => resolve());
      client.ws.once('error', reject);
    });
    return client;
  }

  /** Opens and waits for the first session_state. */
  static async join(baseUrl: string, query: Record<string, string>): Promise<TestSocket> {
    const client = await TestSocket.open(baseUrl, query);
    await client.waitFor((m) => m.type === 'session_state');
    return client;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message at index >= `from` that matches; waits for it if needed. */
  async waitFor(match: (m: AnyMessage) => boolean, options: { from?: number; timeoutMs?: number } = {}): Promise<AnyMessage> {
    const deadline = Date.now() + (options.timeoutMs ?? 5_000);
    for (;;) {
      const found = this.messages.slice(options.from ?? 0).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        // An error's code and text too: a refusal is what a test most needs to read after a timeout.
        const got = this.messages.map((m) => (m.type === 'error' ? `error (${m.code}: ${m.message})` : m.type));
        throw new Error(`timed out waiting for a message; got: ${got.join(', ')}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next message of a type after the current end (call before causing it). */
  next(type: ServerMessage['type'], match: (m: AnyMessage) => boolean = () => true): Promise<AnyMessage> {
    const from = this.messages.length;
    return this.waitFor((m) => m.type === type && match(m), { from });
  }

  /** Sends and waits for the `error` reply. */
  async expectError(message: unknown): Promise<AnyMessage> {
    const reply = this.next('error');
    this.send(message);
    return reply;
  }

  types(from = 0): string[] {
    return this.messages.slice(from).map((m) => (m.type === 'session_state' ? `state:${m.phase}` : m.type));
  }

  close(): Promise<Closed> {
    this.ws.close();
    return this.closed;
  }
}

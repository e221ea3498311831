/**
 * A game set up over plain HTTP (through a load balancer, so any instance may answer each call),
 * and phones that reconnect the way the web app does when their socket drops.
 */
import { type AnyMessage, TestSocket } from '../../ws/testing/client.js';

export interface HttpGame {
  sessionId: string;
  token: string;
  questions: { id: string; correctIndex: number; points: number; timeLimitSeconds: number }[];
  players: { id: string; name: string; playerToken: string }[];
}

async function call<T = any>(baseUrl: string, method: string, url: string, token: string | undefined, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} failed: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = call;

export async function createHttpGame(
  baseUrl: string,
  token: string,
  questions: { text: string; correctIndex: number; points: number; timeLimitSeconds: number }[],
  playerCount: number,
): Promise<HttpGame> {
  const session = await call(baseUrl, 'POST', '/api/admin/sessions', token, { title: 'Premiere night', autoRotate: true, mediaItemsPerTransition: 1 });
  const made: HttpGame['questions'] = [];
  for (const [i, q] of questions.entries()) {
    const created = await call(baseUrl, 'POST', '/api/admin/questions', token, {
      text: q.text, choices: [`A${i}`, `B${i}`, `C${i}`, `D${i}`], correctIndex: q.correctIndex, points: q.points, timeLimitSeconds: q.timeLimitSeconds, categories: ['film'],
    });
    await call(baseUrl, 'POST', `/api/admin/sessions/${session.id}/questions`, token, { questionId: created.id });
    made.push({ id: created.id, correctIndex: q.correctIndex, points: q.points, timeLimitSeconds: q.timeLimitSeconds });
  }
  const players: HttpGame['players'] = [];
  for (let i = 1; i <= playerCount; i++) {
    const p = await call(baseUrl, 'POST', '/api/player/register', undefined, { name: `Player ${i}`, email: `p${i}-${session.id}@example.com`, sessionId: session.id });
    players.push({ id: p.id, name: p.name, playerToken: p.playerToken });
  }
  return { sessionId: session.id, token, questions: made, players };
}

/**
 * A phone: one socket at a time; when it drops, the phone opens a new one through the same URL
 * (the load balancer picks a live instance). `all` keeps every message of every socket in order.
 */
export class Phone {
  socket!: TestSocket;
  readonly sockets: TestSocket[] = [];
  private closedOnPurpose = false;
  reconnects = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly query: Record<string, string>,
  ) {}

  async open(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        this.socket = await TestSocket.join(this.baseUrl, this.query);
        break;
      } catch (err) {
        if (attempt >= 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    this.sockets.push(this.socket);
    const mine = this.socket;
    void mine.closed.then(() => {
      if (this.closedOnPurpose || mine !== this.socket) return;
      this.reconnects++;
      void this.open();
    });
  }

  get all(): AnyMessage[] {
    return this.sockets.flatMap((s) => s.messages);
  }

  /** Waits for a message on any socket of this phone, from now on or matching anything so far with `seen`. */
  async waitFor(match: (m: AnyMessage) => boolean, timeoutMs = 30_000): Promise<AnyMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.all.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`phone: timed out; got ${this.all.map((m) => m.type).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  send(message: unknown): void {
    this.socket.send(message);
  }

  async close(): Promise<void> {
    this.closedOnPurpose = true;
    if (this.socket.isOpen) await this.socket.close();
  }
}

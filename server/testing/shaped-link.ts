/**
 * A TCP proxy that plays a network profile on the byte stream, each way: the phones of
 * `npm run bench -- networks` and the weak-network test go through one each. It shapes at the
 * TCP level, not per packet (the kernel here has no netem):
 *
 * - delay: each chunk is delivered its one-way delay (± jitter) after it was read;
 * - loss: a chunk is "lost" with the profile's probability and delivered one retransmission
 *   timeout later (TCP's resend), holding back everything after it (head-of-line, as TCP does);
 * - signal loss: `cutOff(ms)` holds everything, both ways, new connections included; held
 *   bytes travel their delay once it ends (nothing is lost, as TCP would resend it).
 * Order is kept per direction, and a close reaches the other end after the data sent before it.
 */
import net from 'node:net';

export interface NetworkProfile {
  name: string;
  oneWayMs: number;
  jitterMs: number;
  /** Probability that a chunk needs a resend. */
  loss: number;
  /** One loss of signal of this length per question (0: none). */
  signalLossMs: number;
}



/** Linux's resend timer: at least 200 ms, about the smoothed round trip plus four deviations. */
function retransmitTimeoutMs(profile: NetworkProfile): number {
  return Math.max(200, 2 * profile.oneWayMs + 4 * profile.jitterMs);
}

export class ShapedLink {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private cutOffUntilMs = 0;
  private readonly held = new Set<() => void>();

  constructor(
    private readonly targetPort: number,
    readonly profile: NetworkProfile,
    private readonly random: () => number = Math.random,
  ) {
    this.server = net.createServer((client) => this.pipe(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  get cutOffNow(): boolean {
    return Date.now() < this.cutOffUntilMs;
  }

  /** When the last loss of signal ended (or ends); 0 without one. */
  get cutOffEndsAtMs(): number {
    return this.cutOffUntilMs;
  }

  cutOff(ms: number): void {
    this.cutOffUntilMs = Date.now() + ms;
    setTimeout(() => {
      for (const release of [...this.held]) release();
    }, ms).unref();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pipe(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    }
    this.forward(client, upstream);
    this.forward(upstream, client);
  }

  private oneWayMs(): number {
    const { oneWayMs, jitterMs, loss } = this.profile;
    const delay = oneWayMs + (this.random() * 2 - 1) * jitterMs;
    return Math.max(0, delay) + (this.random() < loss ? retransmitTimeoutMs(this.profile) : 0);
  }

  private forward(from: net.Socket, to: net.Socket): void {
    let tail = Promise.resolve();
    let lastDueMs = 0;
    from.on('data', (chunk: Buffer) => {
      const readAtMs = Date.now();
      tail = tail.then(async () => {
        const sentAtMs = (await this.passCutOff()) ? Date.now() : readAtMs;
        // In order: a chunk never overtakes the one before it.
        lastDueMs = Math.max(lastDueMs, sentAtMs + this.oneWayMs());
        const waitMs = lastDueMs - Date.now();
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        await this.passCutOff();
        if (!to.destroyed) to.write(chunk);
      });
    });
    from.on('close', () => {
      tail = tail.then(() => {
        to.end();
      });
    });
  }

  private passCutOff(): Promise<boolean> {
    if (!this.cutOffNow) return Promise.resolve(false);
    return new Promise((resolve) => {
      const release = () => {
        this.held.delete(release);
        resolve(true);
      };
      this.held.add(release);
    });
  }
}

/**
 * A TCP proxy that plays a phone's bad network for in-process tests: every chunk, each way, is
 * delivered `delayMs` after it was read, and `cutOff(ms)` stops all delivery for that long (a
 * loss of signal: TCP would resend, so nothing is lost, it arrives late). Connections opened
 * during a cut-off are accepted but carry nothing until it ends. Order is kept per direction, and
 * a close reaches the other side after the data sent before it.
 */
import net from 'node:net';

export class ShapingProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private cutOffUntilMs = 0;
  private readonly waiting = new Set<() => void>();

  private constructor(
    private readonly targetPort: number,
    private readonly delayMs: number,
  ) {
    this.server = net.createServer((client) => this.pipe(client));
  }

  static async start(targetPort: number, delayMs: number): Promise<ShapingProxy> {
    const proxy = new ShapingProxy(targetPort, delayMs);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Nothing gets through for `ms` from now; held bytes go out (delayed as usual) afterwards. */
  cutOff(ms: number): void {
    this.cutOffUntilMs = Date.now() + ms;
    setTimeout(() => {
      for (const release of [...this.waiting]) release();
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

  /** Delivers each chunk read from `from` to `to` once it has waited out the delay and any cut-off. */
  private forward(from: net.Socket, to: net.Socket): void {
    let tail = Promise.resolve();
    // A closed end closes the other after what it sent has gone through, as TCP delivers data sent before a close.
    from.on('close', () => {
      tail = tail.then(() => {
        to.end();
      });
    });
    from.on('data', (chunk: Buffer) => {
      const readAtMs = Date.now();
      tail = tail.then(async () => {
        // Held by a loss of signal: it travels its delay once the signal is back.
        const sentAtMs = (await this.passCutOff()) ? Date.now() : readAtMs;
        const waitMs = sentAtMs + this.delayMs - Date.now();
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        await this.passCutOff();
        if (!to.destroyed) to.write(chunk);
      });
    });
  }

  /** Resolves once no cut-off is on; true when it had to wait. */
  private passCutOff(): Promise<boolean> {
    if (Date.now() >= this.cutOffUntilMs) return Promise.resolve(false);
    return new Promise((resolve) => {
      const release = () => {
        this.waiting.delete(release);
        resolve(true);
      };
      this.waiting.add(release);
    });
  }
}

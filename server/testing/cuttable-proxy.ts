/**
 * A TCP proxy on a free local port in front of a service (PostgreSQL, Redis), for fault tests:
 * `cut()` drops every connection and refuses new ones (the service "goes away": clients see
 * their sockets closed, then ECONNREFUSED), `restore()` accepts again on the same port.
 * `resetConnections()` only drops the connections open now (a network blip), so a test can cut at
 * random points while a game keeps writing. Events, not sleeps: `connected` tells a test that a
 * client is (re)connected through the proxy.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';

export class CuttableProxy extends EventEmitter {
  private server: net.Server | null = null;
  private readonly pairs = new Set<net.Socket>();
  private port = 0;
  /** Connections accepted since the start (a test waits for a reconnect with `connectionsAfter`). */
  accepted = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    super();
  }

  /** A proxy to `target` (a URL like postgres://host:port/db or redis://host:port), listening. */
  static async start(target: string): Promise<CuttableProxy> {
    const url = new URL(target);
    const proxy = new CuttableProxy(url.hostname, Number(url.port));
    await proxy.listen();
    return proxy;
  }

  /** `target` with its host and port replaced by the proxy's. */
  url(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  get isCut(): boolean {
    return this.server === null;
  }

  get openConnections(): number {
    return this.pairs.size / 2;
  }

  /** Drops every connection and stops listening: new connections are refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.resetConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Accepts connections again, on the same port. */
  async restore(): Promise<void> {
    if (!this.server) await this.listen();
  }

  /** Drops the connections open now; new ones are still accepted. */
  resetConnections(): void {
    for (const socket of this.pairs) socket.destroy();
    this.pairs.clear();
  }

  /** Resolves once `count` more connections than `since` were accepted. */
  connectionsAfter(since: number, count = 1): Promise<void> {
    if (this.accepted >= since + count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.accepted < since + count) return;
        this.off('connected', check);
        resolve();
      };
      this.on('connected', check);
    });
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private listen(): Promise<void> {
    const server = net.createServer((client) => this.pipe(client));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        this.port = (server.address() as net.AddressInfo).port;
        this.server = server;
        resolve();
      });
    });
  }

  private pipe(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.pairs.add(socket);
      // A reset is the point of this proxy: either side's error just ends the pair.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.pairs.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    this.accepted++;
    this.emit('connected');
  }
}

/** A local port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

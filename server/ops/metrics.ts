/**
 * Marquee's Prometheus metrics (served at /metrics; docs/OPERATIONS.md lists them).
 *
 * Cheap by construction, so `npm run bench` cannot tell they are there: nothing is done per
 * socket send. A broadcast is timed once around the whole fan-out, answers are counted once per
 * stored batch, and the socket and live-session gauges are counted only when Prometheus scrapes.
 *
 * Each server owns its registry (tests run several servers in one process); the default Node.js
 * process metrics (CPU, memory, GC, event-loop delay) are process-wide and registered once.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ClientRole } from '../../protocol/index.js';
import { FastHistogram } from './fast-histogram.js';

/** Where the gauges read their values at scrape time. */
export interface RealtimeCounts {
  socketsByRole(): Record<ClientRole, number>;
  liveSessionCount(): number;
}

/** Seconds; broadcasts and database writes are short, so the buckets start below a millisecond. */
const FAST_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const HTTP_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;

/** The default metrics of this Node.js process (one event-loop monitor, however many servers). */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    // 10 ms resolution: precise enough for the 100 ms alert, and one cheap timer per process.
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();
  private realtime: RealtimeCounts | undefined;

  readonly answers = new Counter({
    name: 'marquee_answers_total',
    help: 'Answers accepted from players and stored',
    registers: [this.registry],
  });

  /** Observed for every broadcast, thousands a second at 1,000 live sessions: see fast-histogram.ts. */
  readonly broadcastSeconds = new FastHistogram(
    'marquee_broadcast_duration_seconds',
    'Time to serialize one room message and hand it to every socket of its target group',
    'target',
    FAST_BUCKETS_S,
    this.registry,
  );

  readonly databaseWriteSeconds = new Histogram({
    name: 'marquee_database_write_duration_seconds',
    help: 'Duration of the live game writes: one group-commit transaction (answers, scores, askings, resume snapshot)',
    labelNames: ['operation'] as const,
    buckets: FAST_BUCKETS_S,
    registers: [this.registry],
  });

  readonly relayFrames = new Counter({
    name: 'marquee_cluster_relay_frames_total',
    help: 'Multi-instance mode: frames this instance received from the owners of games through Redis, by what they were for; unused: no socket here was a target',
    labelNames: ['frame', 'use'] as const,
    registers: [this.registry],
  });

  readonly httpRequestSeconds = new Histogram({
    name: 'marquee_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS_S,
    registers: [this.registry],
  });

  constructor() {
    processMetrics();
    const realtime = () => this.realtime;
    new Gauge({
      name: 'marquee_websocket_connections',
      help: 'Open WebSocket connections by role',
      labelNames: ['role'] as const,
      registers: [this.registry],
      collect() {
        const counts = realtime()?.socketsByRole() ?? { admin: 0, display: 0, player: 0 };
        for (const [role, count] of Object.entries(counts)) this.set({ role }, count);
      },
    });
    new Gauge({
      name: 'marquee_live_sessions',
      help: 'Sessions live in this process',
      registers: [this.registry],
      collect() {
        this.set(realtime()?.liveSessionCount() ?? 0);
      },
    });
  }

  /** The live game, once it runs (it starts after the HTTP server). */
  observeRealtime(counts: RealtimeCounts | undefined): void {
    this.realtime = counts;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition: Marquee's metrics, then the process's. */
  async render(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${process}`;
  }
}

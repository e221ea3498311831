/**
 * The operator's overview of every live game (`GET /api/admin/live`, DESIGN §18).
 *
 * Where the figures come from (the spec leaves it open; docs/REALTIME.md):
 * - One instance: straight from the rooms' in-memory state (RoomManager.summaries), no database
 *   read per game; titles and auditorium names come from one query of the live sessions.
 * - Several instances: each instance publishes the summaries of the games it owns into one Redis
 *   hash, under its own field, every LIVE_PUBLISH_MS (one command per instance, however many games:
 *   cluster/live-publisher.ts); any instance answers by reading the hash and skipping entries older
 *   than LIVE_STALE_MS (an instance that died). A game nobody reports is "down".
 *
 * Health: "down" when no instance is running the game; "warn" when no display is up, or many
 * phones are coming back (reconnects in the last minute at least a tenth of the phones, and at
 * least 3); "ok" otherwise.
 */
import type { LiveGame } from '../../../protocol/index.js';
import type { RoomSummary } from '../../game/rooms/index.js';
import type { Store } from '../../storage/store.js';

/** Where the rooms' summaries come from: this instance's rooms, or every instance's (cluster). */
export type SummarySource = () => Promise<RoomSummary[]>;

export const RECONNECT_WARN_MIN = 3;
export const RECONNECT_WARN_SHARE = 0.1;

export function healthOf(summary: RoomSummary | undefined): LiveGame['health'] {
  if (!summary) return 'down';
  if (summary.displays === 0) return 'warn';
  const storm = summary.reconnectsLastMinute >= Math.max(RECONNECT_WARN_MIN, Math.ceil(summary.phones * RECONNECT_WARN_SHARE));
  return storm ? 'warn' : 'ok';
}

/**
 * Titles in the order an operator reads them: numbers by value ("Screen 2" before "Screen 10"), as
 * a chain names its auditoriums; letters case-blind. Decided where DESIGN §18 is silent.
 */
const TITLE_ORDER = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

const IDLE: Omit<RoomSummary, 'sessionId'> = { item: 'idle', questionNumber: null, questions: 0, phones: 0, displays: 0, answered: 0, reconnectsLastMinute: 0 };

/** Filled in once the realtime side is up (the HTTP routes are built before it). */
export class LiveGames {
  private source: SummarySource | null = null;

  attach(source: SummarySource | null): void {
    this.source = source;
  }

  /** Every live session, by title (TITLE_ORDER), with its room's figures (a live session no room reports: down). */
  async list(store: Store): Promise<LiveGame[]> {
    const [sessions, auditoriums, summaries] = await Promise.all([
      store.sessions.listByStatus('live'),
      store.auditoriums.list(),
      this.source ? this.source() : Promise.resolve([]),
    ]);
    const auditoriumName = new Map(auditoriums.map((a) => [a.id, a.name]));
    const bySession = new Map(summaries.map((s) => [s.sessionId, s]));
    // A game no room reports still has its questions: read for those only (none while all is well).
    const unreported = sessions.filter((session) => !bySession.has(session.id)).map((session) => session.id);
    const questionsOf = await store.items.countQuestionsOf(unreported);
    return sessions
      .map((session): LiveGame => {
        const summary = bySession.get(session.id);
        // Field by field: an entry another release's instance wrote may carry more (DESIGN §18 is exact).
        const { item, questionNumber, questions, phones, displays, answered, reconnectsLastMinute } = summary ?? { ...IDLE, questions: questionsOf.get(session.id) ?? 0 };
        return {
          item,
          questionNumber,
          questions,
          phones,
          displays,
          answered,
          reconnectsLastMinute,
          sessionId: session.id,
          title: session.title,
          auditorium: session.auditoriumId ? (auditoriumName.get(session.auditoriumId) ?? null) : null,
          status: 'live',
          health: healthOf(summary),
        };
      })
      .sort((a, b) => TITLE_ORDER.compare(a.title, b.title) || a.sessionId.localeCompare(b.sessionId));
  }
}

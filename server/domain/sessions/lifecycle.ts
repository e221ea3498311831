import type { Theme } from '../../../protocol/api.js';
import { EventEmitter } from 'node:events';
import type { Session, SessionInput, SessionStatus } from '../../storage/sessions.js';
import type { Store } from '../../storage/store.js';
import { newId, nowIso } from '../../storage/util.js';
import { DomainError } from '../../errors.js';

const COPY_SUFFIX = ' (Copy)';

/** A moderation change: the player's new screen name, or null when kicked (off every screen). */
export interface PlayerModeration {
  playerId: string;
  screenName: string | null;
}

export interface LifecycleEvents {
  /** A session went live (start, restart or its scheduled time). */
  started: [sessionId: string];
  /** A session left live (stop, or deleted). */
  stopped: [sessionId: string];
  /** Items, questions, media or settings of a session changed (a live room reloads its program). */
  changed: [sessionId: string];
  /** Title, theme or settings changed (open screens redraw). */
  updated: [sessionId: string];
  /** A session was deleted (its open sockets are closed). */
  deleted: [sessionId: string];
  /** "Show on display" of a prize draw: the session's displays show these winners. */
  winners: [sessionId: string, winners: { prize: string; names: string[] }];
  /** An admin token was revoked (logout): admin sockets holding it close (DESIGN §15). Not a session event, but it travels the same stream. */
  adminTokenRevoked: [tokenHash: string];
  /** Registrations refused by the per-address limit (players/bursts.ts): admins see a line. */
  registrations: [sessionId: string, burst: { refused: number; addresses: number }];
  /** The host kicked, hid or renamed a player (players/moderation.ts): rooms and sockets follow. */
  moderated: [sessionId: string, change: PlayerModeration];
}

/**
 * Session status changes as DESIGN §3 decides them. The live engine listens to the events;
 * here only the stored status, position and scores change.
 */
export class SessionLifecycle extends EventEmitter<LifecycleEvents> {
  constructor(private readonly store: Store) {
    super();
  }

  /** Draft without a start time or with one in the past; scheduled with a future one. */
  static statusFor(startsAt: string | null, now = Date.now()): SessionStatus {
    return startsAt && Date.parse(startsAt) > now ? 'scheduled' : 'draft';
  }

  async create(input: SessionInput): Promise<Session> {
    return this.store.sessions.create(input, SessionLifecycle.statusFor(input.startsAt));
  }

  async update(id: string, patch: Partial<SessionInput>): Promise<Session> {
    const session = await this.require(id);
    if (session.status === 'live') throw DomainError.conflict('A live session cannot be edited. Stop it first.');
    let status: SessionStatus | undefined;
    // A new start time re-decides draft/scheduled; finished sessions keep their status.
    if (patch.startsAt !== undefined && (session.status === 'draft' || session.status === 'scheduled')) {
      status = SessionLifecycle.statusFor(patch.startsAt);
    }
    const updated = (await this.store.sessions.update(id, { ...patch, status }))!;
    this.emit('updated', id);
    return updated;
  }

  async setTheme(id: string, theme: Theme): Promise<Session> {
    await this.require(id);
    // Theme changes are allowed while live: the operator may fix a colour during the show.
    const updated = (await this.store.sessions.update(id, { theme }))!;
    this.emit('updated', id);
    return updated;
  }

  async delete(id: string): Promise<void> {
    const session = await this.require(id);
    if (session.status === 'live' || !(await this.store.sessions.deleteUnlessLive(id))) {
      throw DomainError.conflict('A live session cannot be deleted. Stop it first.');
    }
    this.emit('deleted', id);
  }

  async start(id: string): Promise<Session> {
    const session = await this.require(id);
    if (!(await this.store.sessions.transition(id, ['draft', 'scheduled'], 'live'))) {
      throw DomainError.conflict(`Only draft or scheduled sessions can be started; this one is ${session.status}.`);
    }
    this.emit('started', id);
    return (await this.store.sessions.get(id))!;
  }

  async stop(id: string): Promise<Session> {
    const session = await this.require(id);
    if (!(await this.store.sessions.transition(id, ['live'], 'finished'))) {
      throw DomainError.conflict(`Only live sessions can be stopped; this one is ${session.status}.`);
    }
    this.emit('stopped', id);
    return (await this.store.sessions.get(id))!;
  }

  /** Finished → live from item 0, with every answer and score of the session deleted first. */
  async restart(id: string): Promise<Session> {
    const session = await this.require(id);
    const restarted = await this.store.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('sessions')
        .set({ status: 'live', live_state: null, current_question_index: 0 })
        .where('id', '=', id)
        .where('status', '=', 'finished')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await this.store.scores.clearSession(trx, id);
      return true;
    });
    if (!restarted) throw DomainError.conflict(`Only finished sessions can be restarted; this one is ${session.status}.`);
    this.emit('started', id);
    return (await this.store.sessions.get(id))!;
  }

  /** A draft copy: title + " (Copy)", settings, theme, items and media assignments. */
  async duplicate(id: string): Promise<Session> {
    const source = await this.require(id);
    // Titles are at most 200 characters: shorten the original so the suffix fits.
    return this.copy(source, { title: `${source.title.slice(0, 200 - COPY_SUFFIX.length)}${COPY_SUFFIX}`, auditoriumId: source.auditoriumId });
  }

  /** A draft copy of a session under another title (and auditorium): duplicates, and each showtime's pre-show. */
  async copy(source: Session, as: { title: string; auditoriumId: string | null; audienceTitle?: string }): Promise<Session> {
    const id = source.id;
    const copyId = newId();
    await this.store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sessions')
        .values({
          id: copyId,
          title: as.title,
          status: 'draft',
          created_at: nowIso(),
          auditorium_id: as.auditoriumId,
          starts_at: null,
          auto_rotate: source.autoRotate ? 1 : 0,
          media_items_per_transition: source.mediaItemsPerTransition,
          return_message: source.returnMessage,
          current_question_index: 0,
          theme: JSON.stringify(source.theme),
          live_state: null,
          prize_draw: JSON.stringify(source.prizeDraw),
          max_players: source.maxPlayers,
          nicknames: source.nicknames,
          audience_title: as.audienceTitle ?? null,
        })
        .execute();
      await this.store.items.copyAll(trx, id, copyId);
      const media = await trx.selectFrom('session_media').select('media_id').where('session_id', '=', id).execute();
      if (media.length > 0) {
        await trx
          .insertInto('session_media')
          .values(media.map((m) => ({ session_id: copyId, media_id: m.media_id, created_at: nowIso() })))
          .execute();
      }
    });
    return (await this.store.sessions.get(copyId))!;
  }

  /** Starts every scheduled session whose time has come; returns the ids started. */
  async startDue(now = Date.now()): Promise<string[]> {
    const started: string[] = [];
    for (const session of await this.store.sessions.listByStatus('scheduled')) {
      if (session.startsAt && Date.parse(session.startsAt) <= now) {
        if (await this.store.sessions.transition(session.id, ['scheduled'], 'live')) {
          started.push(session.id);
          this.emit('started', session.id);
        }
      }
    }
    return started;
  }

  private async require(id: string): Promise<Session> {
    const session = await this.store.sessions.get(id);
    if (!session) throw DomainError.notFound('Session not found');
    return session;
  }
}

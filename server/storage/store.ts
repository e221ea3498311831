import { AdminRepository } from './admins.js';
import { AuditoriumRepository } from './auditoriums.js';
import { DrawRepository } from './draws.js';
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from './db.js';
import { ItemRepository } from './items.js';
import { LiveRosterRepository } from './live-roster.js';
import { LiveWrites } from './live-writes.js';
import { MediaRepository } from './media.js';
import { PlayerRepository } from './players.js';
import { QuestionRepository } from './questions.js';
import { ResultsRepository } from './results.js';
import { ScoreRepository } from './scores.js';
import { SessionRepository } from './sessions.js';
import { SettingsRepository } from './settings.js';
import { ShowtimeRepository } from './showtimes.js';

/** Every repository over one database connection. */
export class Store {
  readonly admins: AdminRepository;
  readonly auditoriums: AuditoriumRepository;
  readonly draws: DrawRepository;
  readonly items: ItemRepository;
  readonly liveRoster: LiveRosterRepository;
  readonly liveWrites: LiveWrites;
  readonly media: MediaRepository;
  readonly players: PlayerRepository;
  readonly questions: QuestionRepository;
  readonly results: ResultsRepository;
  readonly scores: ScoreRepository;
  readonly sessions: SessionRepository;
  readonly settings: SettingsRepository;
  readonly showtimes: ShowtimeRepository;

  constructor(readonly handle: DatabaseHandle) {
    const db = handle.db;
    this.admins = new AdminRepository(db);
    this.auditoriums = new AuditoriumRepository(db);
    this.draws = new DrawRepository(db);
    this.items = new ItemRepository(db);
    this.liveRoster = new LiveRosterRepository(db);
    this.liveWrites = new LiveWrites(handle.sqlite);
    this.media = new MediaRepository(db);
    this.players = new PlayerRepository(db, handle.dialect, handle.sqlite);
    this.questions = new QuestionRepository(db);
    this.scores = new ScoreRepository(db, handle.sqlite, handle.health);
    this.results = new ResultsRepository(db, (sessionId) => this.scores.settleAnswers(db, sessionId));
    this.sessions = new SessionRepository(db);
    this.settings = new SettingsRepository(db);
    this.showtimes = new ShowtimeRepository(db);
  }

  get db() {
    return this.handle.db;
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

export async function openStore(options: OpenDatabaseOptions): Promise<Store> {
  return new Store(await openDatabase(options));
}

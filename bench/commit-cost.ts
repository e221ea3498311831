/**
 * `npx tsx bench/commit-cost.ts [--sessions 1000] [--phones 10] [--per-commit 40] [--rounds 8] [--postgres]`:
 * what the live commits cost in CPU per answer, without sockets, rooms or a load generator: a
 * change to the storage path is too small for a run of `many` to show. Its figures still move by
 * up to a tenth between runs on a busy machine: alternate the versions, and read a figure the
 * change touches over one it does not (the settle, say) from the same run. The commits are those of a chain's round (DbRoomStorage.commitMany, as SharedCommits
 * makes them): each answer in a shared commit of `per-commit` sessions' listed answers, then each
 * session's close (its asking, its scores and a snapshot), then its quiet step (a snapshot: on
 * SQLite the answer log settles into `answers`), then a second quiet step with nothing to settle.
 */
import { pathToFileURL } from 'node:url';
import { DbRoomStorage } from '../server/game/rooms/db-storage.js';
import type { CommitBatch } from '../server/game/rooms/storage.js';
import type { LiveSnapshot } from '../server/game/engine/index.js';
import { openStore, type Store } from '../server/storage/store.js';
import { createTestDatabase, type TestDialect } from '../server/testing/databases.js';
import { addPlayer } from '../server/testing/players.js';

export interface CommitCostOptions {
  sessions: number;
  phones: number;
  /** Sessions' batches in one shared commit. */
  perCommit: number;
  rounds: number;
  dialect: TestDialect;
}

/** CPU per answer (µs) of each kind of commit, over all rounds. */
export interface CommitCost {
  answers: number;
  close: number;
  settle: number;
  quiet: number;
  /** Rows in `answers` at the end: every answer, settled. */
  answersStored: number;
}

export function parseCommitCostArgs(argv: string[]): CommitCostOptions {
  const options: CommitCostOptions = { sessions: 1000, phones: 10, perCommit: 40, rounds: 8, dialect: 'sqlite' };
  const numbers: Record<string, keyof Omit<CommitCostOptions, 'dialect'>> = {
    '--sessions': 'sessions',
    '--phones': 'phones',
    '--per-commit': 'perCommit',
    '--rounds': 'rounds',
  };
  for (let i = 0; i < argv.length; i++) {
    const key = numbers[argv[i]];
    if (argv[i] === '--postgres') options.dialect = 'postgres';
    else if (key && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) options[key] = Number(argv[++i]);
    else throw new Error(`usage: bench/commit-cost.ts [--sessions N] [--phones N] [--per-commit N] [--rounds N] [--postgres] (not ${argv[i]})`);
  }
  return options;
}

/** CPU time (µs) of one commit. */
async function cpuOf(work: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

async function liveSessions(store: Store, options: CommitCostOptions) {
  const sessions: { id: string; players: string[] }[] = [];
  for (let s = 0; s < options.sessions; s++) {
    const session = await store.sessions.create(
      { title: `Cost ${s}`, auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 2, returnMessage: null },
      'draft',
    );
    await store.sessions.transition(session.id, ['draft'], 'live');
    const players: string[] = [];
    for (let p = 0; p < options.phones; p++) players.push((await addPlayer(store, `Phone ${p}`, `p${s}-${p}@cost.test`, `cost-${s}-${p}`, session.id)).id);
    sessions.push({ id: session.id, players });
  }
  return sessions;
}

export async function measureCommitCost(options: CommitCostOptions): Promise<CommitCost> {
  const database = await createTestDatabase(options.dialect);
  const store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
  try {
    const storage = new DbRoomStorage(store);
    const question = await store.questions.create({ text: 'Cost?', choices: ['a', 'b', 'c', 'd'], correctIndex: 2, points: 100, timeLimitSeconds: 15, categories: ['x'], mediaId: null });
    const sessions = await liveSessions(store, options);
    const t0 = Date.now();
    const snapshot = (asking: number) => ({
      live: { version: 1, itemIndex: 0, itemId: 'item', phase: 'reveal', phaseStartedAtMs: t0, phaseEndsAtMs: t0 + 5_000, asking, autoRotate: false, mediaItemCount: null } satisfies LiveSnapshot,
      currentQuestionIndex: 0,
    });
    type Session = (typeof sessions)[number];
    /** Each group of `per-commit` sessions in one shared commit: what `write` makes of the group. */
    const inGroups = async (write: (group: Session[]) => Promise<void>) => {
      let cpu = 0;
      for (let first = 0; first < sessions.length; first += options.perCommit) {
        const group = sessions.slice(first, first + options.perCommit);
        cpu += await cpuOf(() => write(group));
      }
      return cpu;
    };
    const batches = (batchOf: (session: Session) => CommitBatch) => (group: Session[]) => storage.commitMany(group.map(batchOf));
    const cpu = { answers: 0, close: 0, settle: 0, quiet: 0 };
    for (let asking = 1; asking <= options.rounds; asking++) {
      for (let phone = 0; phone < options.phones; phone++) {
        // A room with nothing else on the way puts its answer on the instance's list, not in a batch.
        cpu.answers += await inGroups((group) =>
          storage.commitMany(
            [],
            group.map((s) => ({
              sessionId: s.id,
              playerId: s.players[phone],
              asking,
              answer: { questionId: question.id, selectedIndex: phone % 4, isCorrect: phone % 4 === 2, pointsEarned: phone % 4 === 2 ? 80 : 0, elapsedMs: 400 + phone, answeredAtMs: t0 + phone },
            })),
          ),
        );
      }
      cpu.close += await inGroups(batches((s) => ({
        sessionId: s.id,
        answers: [],
        askings: [{ asking, questionId: question.id, askedAtMs: t0 }],
        scores: s.players.map((playerId, i) => ({ playerId, pointsTotal: asking * 80 + i, reachedAtMs: t0 + i })),
        snapshot: snapshot(asking),
      })));
      cpu.settle += await inGroups(batches((s) => ({ sessionId: s.id, answers: [], scores: [], snapshot: snapshot(asking) })));
      cpu.quiet += await inGroups(batches((s) => ({ sessionId: s.id, answers: [], scores: [], snapshot: snapshot(asking) })));
    }
    const answers = options.sessions * options.phones * options.rounds;
    const [{ count }] = await store.db
      .selectFrom('answers')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .execute();
    return {
      answers: cpu.answers / answers,
      close: cpu.close / answers,
      settle: cpu.settle / answers,
      quiet: cpu.quiet / answers,
      answersStored: Number(count),
    };
  } finally {
    await store.close();
    await database.drop();
  }
}

export function formatCommitCost(options: CommitCostOptions, cost: CommitCost): string {
  const us = (n: number) => n.toFixed(2);
  return [
    `${options.sessions} sessions × ${options.phones} phones on ${options.dialect}, ${options.perCommit} sessions a commit, ${options.rounds} rounds: CPU per answer (µs)`,
    `  its answer's commit ${us(cost.answers)}, its close ${us(cost.close)}, the quiet step that settles ${us(cost.settle)}, a quiet step with nothing to settle ${us(cost.quiet)}`,
    `  total ${us(cost.answers + cost.close + cost.settle)}; ${cost.answersStored} answers stored`,
    // The machine's speed drifts between runs; a figure over another of the same run does less.
    `  over the settle: its answer's commit ${(cost.answers / cost.settle).toFixed(3)}, its close ${(cost.close / cost.settle).toFixed(3)}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const options = parseCommitCostArgs(process.argv.slice(2));
  console.log(formatCommitCost(options, await measureCommitCost(options)));
}

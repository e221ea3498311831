import { z } from 'zod';
import type { SessionResults } from '../../../../protocol/api.js';
import { attachment, csvStream, neutralise, type CsvRecord } from '../../../domain/results/csv.js';
import type { Store } from '../../../storage/store.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';

const tags = ['results'];
const noNul = (v: string) => !v.includes('\0');
const id = z.string().min(1).max(100).refine(noNul, 'must not contain NUL characters');
const sessionParam = z.object({ id });
const playerParam = z.object({ id, playerId: id });
const message = z.object({ message: z.string() });

const LETTERS = ['A', 'B', 'C', 'D'];
export const RESULTS_CSV_HEADER = ['rank', 'name', 'email', 'points', 'answered', 'correct'] as const;
export const ANSWERS_CSV_HEADER = ['name', 'email', 'question', 'asking', 'choice', 'correct', 'points', 'answer_ms'] as const;
export const PLAYERS_CSV_HEADER = ['name', 'email', 'session', 'points', 'registered_at'] as const;

const playerView = z.object({ id: z.string(), name: z.string(), email: z.string() });
const resultsView = z.object({
  session: z.object({ id: z.string(), title: z.string(), status: z.enum(['draft', 'scheduled', 'live', 'finished']) }),
  leaderboard: z.array(
    z.object({
      rank: z.number().describe('1-based; the same total shares a rank (1, 2, 2, 4)'),
      player: playerView,
      pointsTotal: z.number(),
      answered: z.number(),
      correct: z.number(),
    }),
  ),
  questions: z.array(
    z.object({
      questionId: z.string(),
      text: z.string(),
      askings: z.number().describe('times the question was asked in this session'),
      answers: z.number(),
      correct: z.number(),
      averageMs: z.number().nullable().describe('average time to answer; null when nobody answered'),
      distribution: z.array(z.number()).describe('answers per choice, [A, B, C, D]'),
      correctIndex: z.number(),
      choices: z.array(z.string()),
    }),
  ),
});
const playerResultsView = z.object({
  player: playerView,
  answers: z.array(
    z.object({
      questionId: z.string(),
      text: z.string(),
      asking: z.number(),
      selectedIndex: z.number(),
      choice: z.string(),
      isCorrect: z.boolean(),
      pointsEarned: z.number(),
      answerMs: z.number(),
      answeredAt: z.string(),
    }),
  ),
});

const CSV_DOC =
  'CSV, RFC 4180, UTF-8 with a byte-order mark, CRLF rows, streamed. A text cell starting with =, +, -, @, tab or CR is prefixed with \'.';

/** A file name from the session title: `{prefix}-{title}.csv`, reduced to safe characters. */
function fileName(prefix: string, title: string): string {
  const slug = title.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60).toLowerCase();
  return `${prefix}${slug ? `-${slug}` : ''}.csv`;
}

async function requireSession(store: Store, sessionId: string) {
  const session = await store.sessions.get(sessionId);
  if (!session) throw AppError.notFound('Session not found');
  return session;
}

async function* mapPages<T>(pages: AsyncIterable<T[]>, toRecord: (row: T) => CsvRecord): AsyncGenerator<CsvRecord[]> {
  for await (const page of pages) yield page.map(toRecord);
}

/** A session's results and the CSV exports (DESIGN §10). Work during a game and after it. */
export const resultsRoutes: RouteModule = (app, { store }) => {
  // Returns the reply: an async handler must hand it back, or Fastify ends a stream still being written.
  function sendCsv<R extends { header(name: string, value: string): unknown; send(payload: unknown): R }>(
    reply: R,
    log: { error(obj: object, msg: string): void },
    name: string,
    header: readonly string[],
    pages: AsyncIterable<CsvRecord[]>,
  ) {
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', attachment(name));
    reply.header('cache-control', 'no-store');
    return reply.send(csvStream(header, pages, (err) => log.error({ err }, 'CSV export failed while streaming')));
  }

  app.get(
    '/api/admin/sessions/:id/results',
    {
      schema: {
        tags,
        params: sessionParam,
        description:
          'The session\'s full leaderboard (everyone who answered, highest first, ties broken by who reached the total first) ' +
          'and per question: times asked, answers, correct answers, average answer time and the split per choice.',
        response: { 200: resultsView, 400: message, 404: message },
      },
    },
    async (request): Promise<SessionResults> => {
      const session = await requireSession(store, request.params.id);
      const leaderboard: SessionResults['leaderboard'] = [];
      for await (const page of store.results.leaderboard(session.id)) leaderboard.push(...page);
      const questions = await store.results.questionStats(session.id);
      return { session: { id: session.id, title: session.title, status: session.status }, leaderboard, questions };
    },
  );

  app.get(
    '/api/admin/sessions/:id/results/players/:playerId',
    {
      schema: {
        tags,
        params: playerParam,
        description: 'One player\'s answers in the session, in the order given (404 for an unknown session or player).',
        response: { 200: playerResultsView, 400: message, 404: message },
      },
    },
    async (request) => {
      const session = await requireSession(store, request.params.id);
      const player = await store.players.get(request.params.playerId);
      if (!player) throw AppError.notFound('Player not found');
      const answers = await store.results.playerAnswers(session.id, player.id);
      return { player: { id: player.id, name: player.name, email: player.email }, answers };
    },
  );

  app.get(
    '/api/admin/sessions/:id/results.csv',
    {
      schema: {
        tags,
        params: sessionParam,
        produces: ['text/csv'],
        description: `The full leaderboard. Header: ${RESULTS_CSV_HEADER.join(',')}. ${CSV_DOC}`,
        response: { 400: message, 404: message },
      },
    },
    async (request, reply) => {
      const session = await requireSession(store, request.params.id);
      const pages = mapPages(store.results.leaderboard(session.id), (e) => [
        e.rank,
        neutralise(e.player.name),
        neutralise(e.player.email),
        e.pointsTotal,
        e.answered,
        e.correct,
      ]);
      return sendCsv(reply, request.log, fileName('results', session.title), RESULTS_CSV_HEADER, pages);
    },
  );

  app.get(
    '/api/admin/sessions/:id/answers.csv',
    {
      schema: {
        tags,
        params: sessionParam,
        produces: ['text/csv'],
        description:
          `Every answer of the session, by asking. Header: ${ANSWERS_CSV_HEADER.join(',')} ` +
          `(choice A–D, correct true/false, answer_ms from the question's start). ${CSV_DOC}`,
        response: { 400: message, 404: message },
      },
    },
    async (request, reply) => {
      const session = await requireSession(store, request.params.id);
      const pages = mapPages(store.results.answers(session.id), (a) => [
        neutralise(a.name),
        neutralise(a.email),
        neutralise(a.question),
        a.asking,
        LETTERS[a.selectedIndex],
        a.isCorrect ? 'true' : 'false',
        a.pointsEarned,
        a.elapsedMs,
      ]);
      return sendCsv(reply, request.log, fileName('answers', session.title), ANSWERS_CSV_HEADER, pages);
    },
  );

  app.get(
    '/api/admin/players.csv',
    {
      schema: {
        tags: ['players'],
        produces: ['text/csv'],
        description:
          `Every player, oldest registration first, one row per session they scored in (a player with no score: one row, ` +
          `session and points empty). Header: ${PLAYERS_CSV_HEADER.join(',')}. ${CSV_DOC}`,
      },
    },
    async (request, reply) => {
      const pages = mapPages(store.results.players(), (p) => [
        neutralise(p.name),
        neutralise(p.email),
        neutralise(p.session ?? ''),
        p.points ?? '',
        p.registeredAt,
      ]);
      return sendCsv(reply, request.log, 'players.csv', PLAYERS_CSV_HEADER, pages);
    },
  );
};

import { z } from 'zod';
import { IMPORT_MAX_BYTES } from '../../../domain/questions/import-rules.js';
import { SHOWTIME_IMPORT_MAX_ROWS } from '../../../domain/showtimes/input.js';
import { ShowtimeService } from '../../../domain/showtimes/service.js';
import type { RouteModule } from '../context.js';
import { fileBytes, registerFileRoutes } from '../file-upload.js';
import { idParam } from '../sessions/schema.js';

const tags = ['showtimes'];
const TOO_LARGE = `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files and import them one by one.`;
const createBody = z.object({
  title: z.string().max(1000),
  startsAt: z.string().max(100),
});

/** Showtimes per auditorium (DESIGN §13). */
export const showtimeRoutes: RouteModule = (app, { store, lifecycle, clock }) => {
  const showtimes = new ShowtimeService(store, lifecycle, clock);

  app.get(
    '/api/admin/auditoriums/:id/showtimes',
    { schema: { tags, params: idParam, description: "The auditorium's showtimes, upcoming first (soonest first), then past ones (latest first), each with its pre-show." } },
    async (request) => showtimes.list(request.params.id),
  );

  app.post(
    '/api/admin/auditoriums/:id/showtimes',
    {
      schema: {
        tags,
        params: idParam,
        body: createBody,
        description:
          'Body { title, startsAt }, startsAt ISO-8601 with Z or an offset (e.g. 2026-11-23T19:30+01:00). 201 the showtime; ' +
          '400 malformed or in the past; 409 when it is less than the pre-show lead time from another showtime of the auditorium.',
      },
    },
    async (request, reply) => reply.status(201).send(await showtimes.add(request.params.id, request.body)),
  );

  app.delete(
    '/api/admin/showtimes/:id',
    { schema: { tags, params: idParam, description: 'Deletes a showtime: a pre-show not started yet never starts, a running one stops now. 204.' } },
    async (request, reply) => {
      await showtimes.remove(request.params.id);
      return reply.status(204).send();
    },
  );

  registerFileRoutes(app, IMPORT_MAX_BYTES, TOO_LARGE, (files) => {
    files.post(
      '/api/admin/auditoriums/:id/showtimes/import',
      {
        bodyLimit: IMPORT_MAX_BYTES,
        schema: {
          tags,
          params: idParam,
          consumes: ['text/csv', 'text/plain'],
          description:
            `Body: a CSV file (UTF-8, header title,starts_at, at most ${SHOWTIME_IMPORT_MAX_ROWS} rows). Answers { imported, skipped } ` +
            '(skipped: the same film at the same time already there or earlier in the file). Malformed or past rows: 400; rows ' +
            'overlapping another showtime: 409; both { message, errors: [{ line, message }] } with nothing stored.',
        },
      },
      async (request) => showtimes.import(request.params.id, fileBytes(request.body)),
    );
  });
};

/** What an auditorium screen needs, without a token: the screen is put up once and stays. */
export const auditoriumScreenRoutes: RouteModule = (app, { store, lifecycle, clock }) => {
  const showtimes = new ShowtimeService(store, lifecycle, clock);
  const publicTags = ['public'];

  app.get(
    '/api/auditoriums/:id/now',
    {
      schema: {
        tags: publicTags,
        params: idParam,
        description: '{ auditorium: { id, name }, liveSessionId, next: { title, startsAt } | null }: the session live in the auditorium and the next film not yet begun.',
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return showtimes.now(request.params.id);
    },
  );

  app.get(
    '/api/auditoriums/:id/theme',
    { schema: { tags: publicTags, params: idParam, description: "{ theme }: the idle screen's theme, the pre-show template's ({} without one)." } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { theme: await showtimes.idleTheme(request.params.id) };
    },
  );
};

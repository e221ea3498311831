import { z } from 'zod';
import { ShowtimeService } from '../../../domain/showtimes/service.js';
import type { RouteModule } from '../context.js';
import { idParam } from '../sessions/schema.js';

const tags = ['auditoriums'];
// A NUL in the name would fail in PostgreSQL (500); refused as bad input instead.
const name = z
  .string()
  .trim()
  .min(1, 'Auditorium name is required')
  .max(200)
  .refine((v) => !v.includes('\0'), 'must not contain NUL characters');
const createBody = z.object({ name });

const whole = (min: number, max: number) => z.number().int(`must be a whole number from ${min} to ${max}`).min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`);
const updateBody = z
  .object({
    name: name.optional(),
    preShowSessionId: idParam.shape.id.nullable().optional(),
    preShowLeadMinutes: whole(1, 120).optional(),
    preShowEndMinutes: whole(0, 60).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to update');

export const auditoriumRoutes: RouteModule = (app, { store, lifecycle, clock }) => {
  const showtimes = new ShowtimeService(store, lifecycle, clock);

  app.get('/api/admin/auditoriums', { schema: { tags } }, async () => store.auditoriums.list());

  app.post('/api/admin/auditoriums', { schema: { tags, body: createBody } }, async (request, reply) =>
    reply.status(201).send(await store.auditoriums.create(request.body.name)),
  );

  app.put(
    '/api/admin/auditoriums/:id',
    {
      schema: {
        tags,
        params: idParam,
        body: updateBody,
        description:
          'Name and pre-show settings (DESIGN §13): preShowSessionId (the session copied for each showtime, or null), ' +
          'preShowLeadMinutes (1–120, default 20), preShowEndMinutes (0–60, default 2, less than the lead). ' +
          '409 when a longer lead would make upcoming showtimes overlap.',
      },
    },
    async (request) => showtimes.updateAuditorium(request.params.id, request.body),
  );
};

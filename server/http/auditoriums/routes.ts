import { z } from 'zod';
import type { RouteModule } from '../context.js';

const tags = ['auditoriums'];
// A NUL in the name would fail in PostgreSQL (500); refused as bad input instead.
const createBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Auditorium name is required')
    .max(200)
    .refine((v) => !v.includes('\0'), 'must not contain NUL characters'),
});

export const auditoriumRoutes: RouteModule = (app, { store }) => {
  app.get('/api/admin/auditoriums', { schema: { tags } }, async () => store.auditoriums.list());

  app.post('/api/admin/auditoriums', { schema: { tags, body: createBody } }, async (request, reply) =>
    reply.status(201).send(await store.auditoriums.create(request.body.name)),
  );
};

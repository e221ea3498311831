import { z } from 'zod';
import type { RouteModule } from '../context.js';

const tags = ['auditoriums'];
const createBody = z.object({ name: z.string().trim().min(1, 'Auditorium name is required').max(200) });

export const auditoriumRoutes: RouteModule = (app, { store }) => {
  app.get('/api/admin/auditoriums', { schema: { tags } }, async () => store.auditoriums.list());

  app.post('/api/admin/auditoriums', { schema: { tags, body: createBody } }, async (request, reply) =>
    reply.status(201).send(await store.auditoriums.create(request.body.name)),
  );
};

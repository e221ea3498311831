import { z } from 'zod';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';

const tags = ['players'];
// A NUL in the id would fail in PostgreSQL (500); refused as bad input instead.
const idParam = z.object({ id: z.string().min(1).max(100).refine((v) => !v.includes('\0'), 'must not contain NUL characters') });

export const playerAdminRoutes: RouteModule = (app, { store }) => {
  app.get('/api/admin/players', { schema: { tags } }, async () => store.players.list());

  app.delete('/api/admin/players/:id', { schema: { tags, params: idParam } }, async (request, reply) => {
    // Answers, scores and device tokens go with the player (foreign-key cascades).
    if (!(await store.players.delete(request.params.id))) throw AppError.notFound('Player not found');
    return reply.status(204).send();
  });
};

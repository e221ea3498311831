import { z } from 'zod';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';

const tags = ['players'];
const idParam = z.object({ id: z.string().min(1).max(100) });

export const playerAdminRoutes: RouteModule = (app, { store }) => {
  app.get('/api/admin/players', { schema: { tags } }, async () => store.players.list());

  app.delete('/api/admin/players/:id', { schema: { tags, params: idParam } }, async (request, reply) => {
    // Answers, scores and device tokens go with the player (foreign-key cascades).
    if (!(await store.players.delete(request.params.id))) throw AppError.notFound('Player not found');
    return reply.status(204).send();
  });
};

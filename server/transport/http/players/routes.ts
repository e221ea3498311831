import { z } from 'zod';
import { PlayerModeration } from '../../../domain/players/moderation.js';
import type { RouteModule } from '../context.js';

const tags = ['players'];
// A NUL in the id would fail in PostgreSQL (500); refused as bad input instead.
const id = z.string().min(1).max(100).refine((v) => !v.includes('\0'), 'must not contain NUL characters');
const idParam = z.object({ id });
const sessionPlayerParams = z.object({ id, playerId: id });
const renameBody = z.object({ name: z.string().max(200) });
const hideBody = z.object({ hidden: z.boolean() });

export const playerAdminRoutes: RouteModule = (app, { store, lifecycle }) => {
  const moderation = new PlayerModeration(store, lifecycle);

  app.get('/api/admin/players', { schema: { tags } }, async () => store.players.list());

  app.delete('/api/admin/players/:id', { schema: { tags, params: idParam } }, async (request, reply) => {
    // Kicked first (off every screen), then deleted with its answers, scores and device tokens.
    await moderation.delete(request.params.id);
    return reply.status(204).send();
  });

  // Live moderation (DESIGN §15).
  app.patch('/api/admin/players/:id', { schema: { tags, params: idParam, body: renameBody } }, async (request) =>
    moderation.rename(request.params.id, request.body.name),
  );

  app.post('/api/admin/sessions/:id/players/:playerId/kick', { schema: { tags, params: sessionPlayerParams } }, async (request, reply) => {
    await moderation.kick(request.params.id, request.params.playerId);
    return reply.status(204).send();
  });

  app.post('/api/admin/sessions/:id/players/:playerId/hide', { schema: { tags, params: sessionPlayerParams, body: hideBody } }, async (request, reply) => {
    await moderation.hide(request.params.id, request.params.playerId, request.body.hidden);
    return reply.status(204).send();
  });
};

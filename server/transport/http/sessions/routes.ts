import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { createSessionBody, idParam, updateSessionBody } from './schema.js';

const tags = ['sessions'];

export const sessionRoutes: RouteModule = (app, { store, lifecycle, liveGames }) => {
  async function checkAuditorium(auditoriumId: string | null | undefined): Promise<void> {
    if (auditoriumId && !(await store.auditoriums.exists(auditoriumId))) {
      throw AppError.badRequest('Invalid body: auditoriumId: no such auditorium');
    }
  }

  app.get('/api/admin/sessions', { schema: { tags } }, async () => store.sessions.list());

  // Every live game at a glance (DESIGN §18): the rooms' in-memory figures, polled by the panel.
  app.get('/api/admin/live', { schema: { tags } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return liveGames.list(store);
  });

  app.get('/api/admin/sessions/:id', { schema: { tags, params: idParam } }, async (request) => {
    const session = await store.sessions.get(request.params.id);
    if (!session) throw AppError.notFound('Session not found');
    return session;
  });

  app.post('/api/admin/sessions', { schema: { tags, body: createSessionBody } }, async (request, reply) => {
    const body = request.body;
    await checkAuditorium(body.auditoriumId);
    let session = await lifecycle.create({
      title: body.title,
      auditoriumId: body.auditoriumId ?? null,
      startsAt: body.startsAt ?? null,
      autoRotate: body.autoRotate,
      mediaItemsPerTransition: body.mediaItemsPerTransition,
      returnMessage: body.returnMessage ?? null,
      prizeDraw: body.prizeDraw,
      maxPlayers: body.maxPlayers,
      nicknames: body.nicknames,
    });
    if (body.theme) session = await lifecycle.setTheme(session.id, body.theme);
    return reply.status(201).send(session);
  });

  app.put('/api/admin/sessions/:id', { schema: { tags, params: idParam, body: updateSessionBody } }, async (request) => {
    const { theme, ...settings } = request.body;
    const hasSettings = Object.values(settings).some((v) => v !== undefined);
    if (!hasSettings && !theme) throw AppError.badRequest('Invalid body: nothing to update');
    await checkAuditorium(settings.auditoriumId);
    if (hasSettings) await lifecycle.update(request.params.id, settings);
    if (theme) return lifecycle.setTheme(request.params.id, theme);
    return (await store.sessions.get(request.params.id))!;
  });

  app.delete('/api/admin/sessions/:id', { schema: { tags, params: idParam } }, async (request, reply) => {
    await lifecycle.delete(request.params.id);
    return reply.status(204).send();
  });

  app.post('/api/admin/sessions/:id/start', { schema: { tags, params: idParam } }, async (request) =>
    lifecycle.start(request.params.id),
  );
  app.post('/api/admin/sessions/:id/stop', { schema: { tags, params: idParam } }, async (request) =>
    lifecycle.stop(request.params.id),
  );
  app.post('/api/admin/sessions/:id/restart', { schema: { tags, params: idParam } }, async (request) =>
    lifecycle.restart(request.params.id),
  );
  app.post('/api/admin/sessions/:id/duplicate', { schema: { tags, params: idParam } }, async (request, reply) =>
    reply.status(201).send(await lifecycle.duplicate(request.params.id)),
  );
};

import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { listQuery, questionBody, questionIdParam } from './schema.js';

const tags = ['questions'];

export const questionRoutes: RouteModule = (app, { store, lifecycle }) => {
  async function checkMedia(mediaId: string | null): Promise<void> {
    if (!mediaId) return;
    const row = await store.db.selectFrom('media').select('id').where('id', '=', mediaId).executeTakeFirst();
    if (!row) throw AppError.badRequest('Invalid body: mediaId: no such media');
  }

  app.get('/api/admin/questions', { schema: { tags, querystring: listQuery } }, async (request) => {
    const { sessionId } = request.query;
    if (sessionId && !(await store.sessions.get(sessionId))) throw AppError.notFound('Session not found');
    return store.questions.list(sessionId);
  });

  app.post('/api/admin/questions', { schema: { tags, body: questionBody } }, async (request, reply) => {
    await checkMedia(request.body.mediaId);
    return reply.status(201).send(await store.questions.create(request.body));
  });

  app.put('/api/admin/questions/:id', { schema: { tags, params: questionIdParam, body: questionBody } }, async (request) => {
    await checkMedia(request.body.mediaId);
    const question = await store.questions.update(request.params.id, request.body);
    if (!question) throw AppError.notFound('Question not found');
    for (const sessionId of await store.items.sessionIdsForQuestion(question.id)) lifecycle.emit('changed', sessionId);
    return question;
  });

  app.delete('/api/admin/questions/:id', { schema: { tags, params: questionIdParam } }, async (request, reply) => {
    const sessions = await store.items.sessionIdsForQuestion(request.params.id);
    if (!(await store.questions.delete(request.params.id))) throw AppError.notFound('Question not found');
    for (const sessionId of sessions) lifecycle.emit('changed', sessionId);
    return reply.status(204).send();
  });
};

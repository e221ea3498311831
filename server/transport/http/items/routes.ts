import { isConstraintError } from '../../../storage/util.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import {
  addQuestionBody, createMediaBlockBody, createSlideBody, directionBody, itemParam, questionParam, sessionParam,
  updateMediaBlockBody,
} from './schema.js';

const tags = ['session contents'];

export const itemRoutes: RouteModule = (app, { store, lifecycle }) => {
  async function requireSession(id: string): Promise<void> {
    if (!(await store.sessions.get(id))) throw AppError.notFound('Session not found');
  }
  async function requireItem(sessionId: string, itemId: string, type?: 'media_block') {
    await requireSession(sessionId);
    const item = await store.items.get(sessionId, itemId);
    if (!item || (type && item.item_type !== type)) throw AppError.notFound(type ? 'Media block not found' : 'Item not found');
    return item;
  }
  async function move(sessionId: string, itemId: string, direction: 'up' | 'down'): Promise<void> {
    if (!(await store.items.move(sessionId, itemId, direction))) {
      throw AppError.conflict(direction === 'up' ? 'The item is already first' : 'The item is already last');
    }
    lifecycle.emit('changed', sessionId);
  }

  app.get('/api/admin/sessions/:id/items', { schema: { tags, params: sessionParam } }, async (request) => {
    await requireSession(request.params.id);
    return store.items.list(request.params.id);
  });

  app.get('/api/admin/sessions/:id/questions', { schema: { tags, params: sessionParam } }, async (request) => {
    await requireSession(request.params.id);
    return store.items.questionLinks(request.params.id);
  });

  app.post('/api/admin/sessions/:id/questions', { schema: { tags, params: sessionParam, body: addQuestionBody } }, async (request, reply) => {
    const sessionId = request.params.id;
    await requireSession(sessionId);
    if (!(await store.questions.get(request.body.questionId))) throw AppError.notFound('Question not found');
    if (await store.items.findQuestionItem(sessionId, request.body.questionId)) {
      throw AppError.conflict('The question is already in this session');
    }
    try {
      const item = await store.items.append(
        sessionId,
        { item_type: 'question', question_id: request.body.questionId, slide_type: null, slide_data: null, media_item_count: null },
        request.body.orderIndex,
      );
      lifecycle.emit('changed', sessionId);
      return reply.status(201).send({ questionId: request.body.questionId, sessionId, orderIndex: item.order_index });
    } catch (err) {
      if (isConstraintError(err)) throw AppError.conflict('The question is already in this session');
      throw err;
    }
  });

  app.delete('/api/admin/sessions/:id/questions/:questionId', { schema: { tags, params: questionParam } }, async (request, reply) => {
    await requireSession(request.params.id);
    const item = await store.items.findQuestionItem(request.params.id, request.params.questionId);
    if (!item) throw AppError.notFound('The question is not in this session');
    await store.items.remove(item.id);
    lifecycle.emit('changed', request.params.id);
    return reply.status(204).send();
  });

  app.post(
    '/api/admin/sessions/:id/questions/:questionId/reorder',
    { schema: { tags, params: questionParam, body: directionBody } },
    async (request) => {
      await requireSession(request.params.id);
      const item = await store.items.findQuestionItem(request.params.id, request.params.questionId);
      if (!item) throw AppError.notFound('The question is not in this session');
      await move(request.params.id, item.id, request.body.direction);
      return store.items.list(request.params.id);
    },
  );

  app.post('/api/admin/sessions/:id/media-blocks', { schema: { tags, params: sessionParam, body: createMediaBlockBody } }, async (request, reply) => {
    await requireSession(request.params.id);
    const row = await store.items.append(request.params.id, {
      item_type: 'media_block', question_id: null, slide_type: null, slide_data: null,
      media_item_count: request.body.mediaItemCount,
    });
    lifecycle.emit('changed', request.params.id);
    return reply.status(201).send((await store.items.list(request.params.id)).find((i) => i.id === row.id));
  });

  app.put('/api/admin/sessions/:id/media-blocks/:itemId', { schema: { tags, params: itemParam, body: updateMediaBlockBody } }, async (request) => {
    await requireItem(request.params.id, request.params.itemId, 'media_block');
    await store.items.setMediaItemCount(request.params.itemId, request.body.mediaItemCount);
    lifecycle.emit('changed', request.params.id);
    return (await store.items.list(request.params.id)).find((i) => i.id === request.params.itemId);
  });

  app.delete('/api/admin/sessions/:id/items/:itemId', { schema: { tags, params: itemParam } }, async (request, reply) => {
    await requireItem(request.params.id, request.params.itemId);
    await store.items.remove(request.params.itemId);
    lifecycle.emit('changed', request.params.id);
    return reply.status(204).send();
  });

  app.post('/api/admin/sessions/:id/items/:itemId/reorder', { schema: { tags, params: itemParam, body: directionBody } }, async (request) => {
    await requireItem(request.params.id, request.params.itemId);
    await move(request.params.id, request.params.itemId, request.body.direction);
    return store.items.list(request.params.id);
  });

  app.post('/api/admin/sessions/:id/slides', { schema: { tags, params: sessionParam, body: createSlideBody } }, async (request, reply) => {
    await requireSession(request.params.id);
    const row = await store.items.append(request.params.id, {
      item_type: 'slide', question_id: null, slide_type: request.body.slideType,
      slide_data: request.body.slideData ? JSON.stringify(request.body.slideData) : null, media_item_count: null,
    });
    lifecycle.emit('changed', request.params.id);
    return reply.status(201).send((await store.items.list(request.params.id)).find((i) => i.id === row.id));
  });
};

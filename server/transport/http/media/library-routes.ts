import { categoryOf } from '../../../domain/media/sniff.js';
import type { MediaUploads } from '../../../domain/media/uploads.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { uploadsFor } from './deps.js';
import { assignBody, assignmentParam, createMediaBody, durationBody, idParam, objectIdOfPath } from './schema.js';

const tags = ['media'];

/** The sniffed category of an uploaded file, or a 400 naming the field when there is no such upload. */
async function uploadedCategory(uploads: MediaUploads, field: string, path: string) {
  const object = await uploads.ready(objectIdOfPath(path));
  if (!object?.contentType) throw AppError.badRequest(`${field}: no uploaded file at ${path}`);
  return categoryOf(object.contentType);
}

/** The media library (SPEC §7 Media) and which sessions show which media. */
export const mediaLibraryRoutes: RouteModule = (app, deps) => {
  const { store, lifecycle } = deps;
  const uploads = uploadsFor(deps, app.log);

  async function requireSession(id: string): Promise<void> {
    if (!(await store.sessions.get(id))) throw AppError.notFound('Session not found');
  }
  async function requireMedia(id: string) {
    const media = await store.media.get(id);
    if (!media) throw AppError.notFound('Media not found');
    return media;
  }
  const changed = (sessionIds: Iterable<string>) => {
    for (const id of sessionIds) lifecycle.emit('changed', id);
  };

  // The library tab and the question form's media picker both list everything, newest first.
  app.get('/api/media', { schema: { tags } }, async () => store.media.list());
  app.get('/api/admin/media', { schema: { tags } }, async () => store.media.list());

  app.post('/api/media', { schema: { tags, body: createMediaBody } }, async (request, reply) => {
    const body = request.body;
    // The declared type must agree with what the bytes are, for the phone version too: players
    // pick <video> or <img> from fileType and play whichever file suits their screen.
    for (const [field, path] of [['filePath', body.filePath], ['phoneFilePath', body.phoneFilePath]] as const) {
      if (!path) continue;
      const category = await uploadedCategory(uploads, field, path);
      if (category !== body.fileType) {
        throw AppError.badRequest(`${field}: the uploaded file is ${category === 'image' ? 'an image' : 'a video'}, not ${body.fileType === 'image' ? 'an image' : 'a video'}`);
      }
    }
    const media = await store.media.create({
      filePath: body.filePath,
      phoneFilePath: body.phoneFilePath ?? null,
      fileType: body.fileType,
      duration: body.duration,
      promotionalLink: body.promotionalLink ?? null,
    });
    return reply.status(201).send(media);
  });

  app.patch('/api/media/:id', { schema: { tags, params: idParam, body: durationBody } }, async (request) => {
    await requireMedia(request.params.id);
    const media = await store.media.setDuration(request.params.id, request.body.duration);
    changed(await store.media.sessionsUsing(request.params.id));
    return media;
  });

  app.delete('/api/media/:id', { schema: { tags, params: idParam } }, async (request, reply) => {
    const media = await requireMedia(request.params.id);
    const sessions = await store.media.sessionsUsing(media.id);
    await store.media.delete(media.id);
    // Files go once nothing else (another media item, a session theme) points at them.
    for (const path of [media.filePath, media.phoneFilePath]) {
      if (path?.startsWith('/media/')) await uploads.removeIfUnreferenced(path.slice('/media/'.length));
    }
    changed(sessions);
    return reply.status(204).send();
  });

  app.get('/api/admin/sessions/:id/media', { schema: { tags, params: idParam } }, async (request) => {
    await requireSession(request.params.id);
    return store.media.assignments(request.params.id);
  });

  app.post('/api/admin/sessions/:id/media', { schema: { tags, params: idParam, body: assignBody } }, async (request, reply) => {
    const sessionId = request.params.id;
    await requireSession(sessionId);
    await requireMedia(request.body.mediaId);
    if (!(await store.media.assign(sessionId, request.body.mediaId))) {
      throw AppError.conflict('The media is already assigned to this session');
    }
    changed([sessionId]);
    return reply.status(201).send({ mediaId: request.body.mediaId, sessionId });
  });

  app.delete('/api/admin/sessions/:id/media/:mediaId', { schema: { tags, params: assignmentParam } }, async (request, reply) => {
    await requireSession(request.params.id);
    if (!(await store.media.unassign(request.params.id, request.params.mediaId))) {
      throw AppError.notFound('The media is not assigned to this session');
    }
    changed([request.params.id]);
    return reply.status(204).send();
  });
};

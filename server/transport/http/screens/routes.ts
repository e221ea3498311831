import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { idParam } from '../sessions/schema.js';

const tags = ['screens'];
const screenLinkResponse = 'The screen address with its display key: `{ url, key }` (DESIGN §15).';

/**
 * The big screens' addresses (DESIGN §15): an operator opens these, and only these carry the
 * display key that lets a screen fetch join links. Admin only (behind the admin guard).
 */
export const screenLinkRoutes: RouteModule = (app, { store, displayKeys }) => {
  app.get('/api/admin/sessions/:id/screen-link', { schema: { tags, params: idParam, description: screenLinkResponse } }, async (request) => {
    if (!(await store.sessions.get(request.params.id))) throw AppError.notFound('Session not found');
    return displayKeys.screenLink({ kind: 'session', id: request.params.id });
  });

  app.get(
    '/api/admin/auditoriums/:id/screen-link',
    { schema: { tags, params: idParam, description: `${screenLinkResponse} The key serves every session of the auditorium.` } },
    async (request) => {
      if (!(await store.auditoriums.exists(request.params.id))) throw AppError.notFound('Auditorium not found');
      return displayKeys.screenLink({ kind: 'auditorium', id: request.params.id });
    },
  );
};

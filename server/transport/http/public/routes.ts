import { z } from 'zod';
import { BurstWatch } from '../../../domain/players/bursts.js';
import { RegistrationLimiter } from '../../../domain/players/rate-limit.js';
import { type RegistrationDeps, registerPlayer } from '../../../domain/players/registration.js';
import { DEFAULT_RETURN_MESSAGE } from '../../../domain/sessions/join-links.js';
import { toPublicSessionInfo } from '../../../domain/sessions/public-view.js';
import type { Session } from '../../../storage/sessions.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { adminTokenOf } from '../auth-guard.js';

const tags = ['public'];
// PostgreSQL text cannot hold NUL (U+0000): such a value would fail in the database with a 500,
// so it is refused here as bad input (SQLite would store it silently).
const noNul = (v: string) => !v.includes('\0');
const NUL_MESSAGE = 'must not contain NUL characters';
const id = z.string().min(1).max(100).refine(noNul, NUL_MESSAGE);
const sessionParam = z.object({ id });
// Link parameters come from a URL, so a numeric string is as good as a number.
const timestamp = z.union([z.number(), z.string().max(20)]).optional().nullable();
const signature = z.string().max(200).optional().nullable();

const accessBody = z.object({ timestamp, signature });
const joinUrlQuery = z.object({ key: z.string().max(200).optional() });

const registerBody = z.object({
  // The name rules (normalising, filtering) run in registration.ts; this bounds the input.
  name: z.string().trim().min(1, 'Name is required').max(50, 'Name must be at most 50 characters').refine(noNul, NUL_MESSAGE),
  email: z.string().trim().min(1, 'Email is required').max(254).pipe(z.email('Please enter a valid email address')),
  sessionId: id,
  timestamp,
  signature,
  // The join form's consent box (DESIGN §11): only a tick counts, and only when the session runs a draw.
  prizeConsent: z.boolean().default(false),
  // The token this device got when it registered before: the same device gets the same player.
  playerToken: z.string().min(1).max(200).nullable().optional(),
});

/** What the join form showed next to the box (web/player/PlayerJoinPage.tsx draws the same two lines). */
export function consentWording(draw: { prize: string; consentText: string }): string {
  return draw.prize ? `Prize: ${draw.prize}\n${draw.consentText}` : draw.consentText;
}

export const FINISHED_MESSAGE = 'This game has ended. Thanks for playing!';

const returnMessageOf = (session: Session) => session.returnMessage?.trim() || DEFAULT_RETURN_MESSAGE;

export const publicRoutes: RouteModule = (app, { store, config, joinLinks, displayKeys, adminAuth, lifecycle, registrationLimiter }) => {
  const registration: RegistrationDeps = {
    store,
    limiter: registrationLimiter ?? new RegistrationLimiter(config.registrationLimit),
    bursts: new BurstWatch((sessionId, burst) => lifecycle.emit('registrations', sessionId, burst)),
  };

  async function requireSession(id: string): Promise<Session> {
    const session = await store.sessions.get(id);
    if (!session) throw AppError.notFound('Session not found');
    return session;
  }

  app.get('/api/public-url', { schema: { tags } }, async (request) => {
    if (config.publicUrl) return { publicUrl: config.publicUrl };
    // Protocol and host follow X-Forwarded-Proto/Host only from a TRUST_PROXY proxy, else the Host header.
    return { publicUrl: `${request.protocol}://${request.host}` };
  });

  app.get('/api/sessions/:id', { schema: { tags, params: sessionParam } }, async (request) => {
    return toPublicSessionInfo(await requireSession(request.params.id));
  });

  // Only whoever can see the screen may mint links (DESIGN §15): the display's key or an admin.
  app.get(
    '/api/sessions/:id/join-url',
    { schema: { tags, params: sessionParam, querystring: joinUrlQuery, description: 'Needs an admin token (bearer or cookie) or a display key as ?key= (DESIGN §15).' } },
    async (request, reply) => {
      const session = await requireSession(request.params.id);
      const byKey = displayKeys.opens(request.query.key, session);
      if (!byKey && !(await adminAuth.verify(adminTokenOf(request)))) {
        throw AppError.unauthorized(request.query.key ? 'Invalid display key' : 'A display key or an admin login is required');
      }
      reply.header('cache-control', 'no-store');
      return joinLinks.create(request.params.id);
    },
  );

  app.post('/api/sessions/:id/validate-access', { schema: { tags, params: sessionParam, body: accessBody } }, async (request) => {
    const session = await requireSession(request.params.id);
    const check = joinLinks.check(session.id, request.body.timestamp, request.body.signature);
    if (!check.valid) return { valid: false, message: returnMessageOf(session) };
    // A good link to a game that has ended would only fail at registration: say so now.
    if (session.status === 'finished') return { valid: false, message: FINISHED_MESSAGE };
    return { valid: true, message: 'Access granted' };
  });

  app.post('/api/player/register', { schema: { tags, body: registerBody } }, async (request, reply) => {
    const body = request.body;
    const session = await requireSession(body.sessionId);
    if (config.requireSignedJoin && !joinLinks.check(session.id, body.timestamp, body.signature).valid) {
      throw AppError.forbidden(returnMessageOf(session), { returnToTheater: true });
    }
    if (session.status === 'finished') throw AppError.conflict(FINISHED_MESSAGE);
    const { player, playerToken } = await registerPlayer(registration, {
      session,
      name: body.name,
      email: body.email,
      playerToken: body.playerToken ?? null,
      address: request.ip,
    });
    const draw = session.prizeDraw;
    if (body.prizeConsent && draw.enabled) await store.draws.recordConsent(session.id, player.id, consentWording(draw));
    return reply.status(201).send({ ...player, sessionId: session.id, playerToken });
  });
};

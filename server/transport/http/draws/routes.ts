import { z } from 'zod';
import { runDraw } from '../../../domain/draws/draw.js';
import { WinnersGate } from '../../../domain/draws/winners-gate.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';

const tags = ['prize draw'];
const noNul = (v: string) => !v.includes('\0');
const id = z.string().min(1).max(100).refine(noNul, 'must not contain NUL characters');
const sessionParam = z.object({ id });
const drawParam = z.object({ id, drawId: id });

const drawBody = z.object({
  count: z.number({ error: 'count must be a whole number from 1 to 10' }).int('count must be a whole number from 1 to 10').min(1, 'count must be a whole number from 1 to 10').max(10, 'count must be a whole number from 1 to 10'),
  minScore: z.number().int('minScore must be a whole number').min(0, 'minScore must be 0 or more').optional(),
});

const player = z.object({ id: z.string(), name: z.string(), email: z.string() });
const drawView = z.object({
  id: z.string(),
  createdAt: z.string(),
  eligible: z.number().describe('how many players the winners were drawn from'),
  winners: z.array(z.object({ player, pointsTotal: z.number() })),
  drawnBy: z.string().describe('the administrator who drew'),
  prize: z.string(),
  minScore: z.number().nullable(),
});
const message = z.object({ message: z.string() });

/** The consent-first prize draw of a session (DESIGN §11). */
export const drawRoutes: RouteModule = (app, { store, lifecycle }) => {
  const gate = new WinnersGate(store, (sessionId, winners) => lifecycle.emit('winners', sessionId, winners));
  app.addHook('onClose', async () => gate.close());

  async function requireSession(sessionId: string) {
    const session = await store.sessions.get(sessionId);
    if (!session) throw AppError.notFound('Session not found');
    return session;
  }

  app.post(
    '/api/admin/sessions/:id/draws',
    {
      schema: {
        tags,
        params: sessionParam,
        body: drawBody,
        description:
          'Draws 1–10 winners uniformly at random (crypto) among the players of this session who ticked the consent box, ' +
          'were not drawn before in it, and have at least minScore points. 409 when nobody is eligible.',
        response: { 201: drawView, 400: message, 404: message, 409: message },
      },
    },
    async (request, reply) => {
      const draw = await runDraw(store, request.params.id, request.body, request.admin?.username ?? 'unknown');
      return reply.status(201).send(draw);
    },
  );

  app.get(
    '/api/admin/sessions/:id/draws',
    { schema: { tags, params: sessionParam, description: 'Every draw of the session, newest first.', response: { 200: z.array(drawView), 404: message } } },
    async (request) => {
      await requireSession(request.params.id);
      return store.draws.list(request.params.id);
    },
  );

  app.post(
    '/api/admin/sessions/:id/draws/:drawId/show',
    {
      schema: {
        tags,
        params: drawParam,
        description:
          'Puts the winners\' names (never emails) on the session\'s displays: { type: "winners", prize, names }. ' +
          'Between questions only: during an open question it answers 202 { queued: true } and shows them when the question closes.',
        response: { 200: z.object({ prize: z.string(), names: z.array(z.string()) }), 202: z.object({ queued: z.literal(true) }), 404: message },
      },
    },
    async (request, reply) => {
      await requireSession(request.params.id);
      const [draw] = await store.draws.list(request.params.id, request.params.drawId);
      if (!draw) throw AppError.notFound('Draw not found');
      const shown = { prize: draw.prize, names: draw.winners.map((w) => w.player.name) };
      if (await gate.show(request.params.id, shown)) return reply.status(202).send({ queued: true as const });
      return shown;
    },
  );
};

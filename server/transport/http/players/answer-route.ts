/**
 * `POST /api/player/answer`: a pick sent over plain HTTP by a phone whose socket is down or silent
 * (DESIGN §14, docs/REALTIME.md "A pick over HTTP"). The socket server takes it (socket-server.ts
 * `answerOverHttp`): this route only checks the body's shape and reports the outcome.
 */
import { z } from 'zod';
import { PLAYER_ANSWER_PATH, submitAnswerSchema } from '../../../../protocol/index.js';
import type { RouteModule } from '../context.js';

const tags = ['players'];
const id = z.string().min(1).max(200).refine((v) => !v.includes('\0'), 'must not contain NUL characters');
const answerBody = z.object({ sessionId: id, playerId: id, playerToken: id, answer: submitAnswerSchema });

/** A submit_answer message with its credentials is a few hundred bytes. */
const ANSWER_BODY_LIMIT = 4_096;

export const playerAnswerRoutes: RouteModule = (app, { playerAnswers }) => {
  const description =
    'A pick sent by a phone whose socket is down (DESIGN §14): the same submit_answer message, with the player\'s credentials. ' +
    '202 means handed to the game: its acceptance goes to the player\'s sockets (answer_accepted); a refusal is not sent back.';
  app.post(PLAYER_ANSWER_PATH, { bodyLimit: ANSWER_BODY_LIMIT, schema: { tags, body: answerBody, description } }, async (request, reply) => {
    const outcome = await playerAnswers.submit(request.body);
    // The phone sends each pick on a fresh connection; one kept open in its pool could be the
    // next to die in a loss of signal.
    reply.header('connection', 'close');
    if (outcome.status === 202) return reply.status(202).send({ received: true });
    return reply.status(outcome.status).send({ message: outcome.message });
  });
};

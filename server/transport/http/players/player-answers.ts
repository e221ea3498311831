/**
 * Picks phones send over HTTP while their socket is down (DESIGN §14): the route (answer-route.ts)
 * hands them to the socket server, attached once the realtime side is up.
 */
import type { PlayerAnswerBody } from '../../../../protocol/index.js';
import type { HttpAnswerOutcome } from '../../ws/socket-server.js';

/** The socket server's handler, attached once the realtime side is up (the routes are built before it). */
export class PlayerAnswers {
  private handler: ((answer: PlayerAnswerBody) => Promise<HttpAnswerOutcome>) | null = null;

  attach(handler: ((answer: PlayerAnswerBody) => Promise<HttpAnswerOutcome>) | null): void {
    this.handler = handler;
  }

  submit(answer: PlayerAnswerBody): Promise<HttpAnswerOutcome> {
    return this.handler ? this.handler(answer) : Promise.resolve({ status: 503, message: 'The server is starting' });
  }
}

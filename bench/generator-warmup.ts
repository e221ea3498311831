/**
 * The generator's own warm-up, before it touches the measured server. Measured with a bare `ws`
 * server (the baseline), the first round's fan-out was slower than the later ones (p99 1.13–1.36×,
 * p50 1.5×) and the generator spent about half again as much CPU in it (0.53 s, then 0.35 and
 * 0.31 s at 2,000 phones): the generator's own receive path (ws's client receiver, the phones'
 * frame handling, their answers' masked sends) ran cold for the first question, and on a machine
 * whose cores it shares with the server that slowed every stamp. Real phones are separate
 * devices; their warmth has nothing to do with the server's. So the generator plays a few
 * questions against a throwaway `ws` server inside its own process first, through the very code
 * the phones use (openSocket, Phone), and only then registers and connects the phones.
 */
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { Countdown, openSocket, Phone } from './clients.js';

/** Enough frames for the optimizing compiler to pick up the phones' paths (about 3,000 each way). */
const SOCKETS = 64;
const QUESTIONS = 48;
const CHOICES = ['Metropolis', 'Nosferatu', 'The Kid', 'Safety Last!'];

function questionState(n: number): string {
  return JSON.stringify({
    type: 'session_state',
    phase: 'question',
    question: { id: `warm-up-${n}`, text: 'Which film opened the first season?', choices: CHOICES, timeLimitSeconds: 20, points: 100, media: null },
    questionIndex: n,
    totalQuestions: QUESTIONS,
    timeLeftMs: 20_000,
  });
}

/** Plays the warm-up; resolves with how many answer results the phones took in. */
export async function warmUpGenerator(): Promise<number> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  server.on('connection', (socket: WebSocket) => {
    socket.send(JSON.stringify({ type: 'session_state', phase: 'lobby' }));
    socket.on('message', (data: Buffer) => {
      const { questionId, selectedIndex } = JSON.parse(data.toString()) as { questionId: string; selectedIndex: number };
      socket.send(JSON.stringify({ type: 'answer_accepted', questionId }));
      socket.send(JSON.stringify({ type: 'timer_tick', timeLeftMs: 19_000 }));
      socket.send(JSON.stringify({ type: 'answer_result', questionId, correct: selectedIndex === 0, pointsEarned: 0, totalScore: 0 }));
    });
  });
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    let results = new Countdown(0, 0);
    let resultsTaken = 0;
    const phones = Array.from({ length: SOCKETS }, (_, i) => new Phone(`warm-up-${i}`, 0, { question: (p) => p.answer(i % 4), result: () => (resultsTaken++, results.tick()) }));
    for (const phone of phones) phone.ws = await openSocket(url, phone.onFrame);
    for (let n = 0; n < QUESTIONS; n++) {
      results = new Countdown(SOCKETS, 10_000);
      const frame = questionState(n);
      for (const client of server.clients) client.send(frame);
      if (!(await results.done)) throw new Error('the generator warm-up did not complete');
    }
    for (const phone of phones) phone.ws?.terminate();
    return resultsTaken;
  } finally {
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

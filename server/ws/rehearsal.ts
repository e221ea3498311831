/**
 * A rehearsal: one question played to a full house that is not there, through the real room
 * (queue, engine, group commit), the protocol's parser and the hub's encoding, with no socket and
 * no database (the room writes into memory). It runs when a session goes live and when a server
 * starts with live sessions, so the first question the audience sees runs on code the JIT has
 * already compiled; without it the bench measured the first question's CPU about 40% above
 * the next ones' (docs/PERFORMANCE.md).
 */
import { parseClientMessage, type ServerMessage } from '../../protocol/index.js';
import type { Program } from '../engine/index.js';
import { type Broadcaster, MemoryRoomStorage, type RoomLog, Room, systemClock } from '../rooms/index.js';
import { encodeMessage } from './hub.js';

/** Enough calls for the optimizing compilers to pick up the answer and close paths. */
export const REHEARSAL_PLAYERS = 2_000;

const SESSION_ID = 'rehearsal';
const QUESTION_ID = 'rehearsal-question';

const program: Program = {
  sessionId: SESSION_ID,
  items: [
    { itemType: 'slide', id: 'rehearsal-intro', slideType: 'intro', slideData: {} },
    {
      itemType: 'question',
      id: 'rehearsal-item',
      question: {
        id: QUESTION_ID,
        text: 'Rehearsal: which film opened the first season?',
        choices: ['Metropolis', 'Nosferatu', 'The Kid', 'Safety Last!'],
        correctIndex: 0,
        points: 100,
        timeLimitSeconds: 120,
        categories: ['rehearsal'],
        media: null,
      },
    },
  ],
  media: [],
  mediaItemsPerTransition: 1,
};

/** Encodes like the hub, then drops the frame; counts what it was given, by message type. */
function encodingSink(counts: Map<string, number>): Broadcaster {
  const take = (message: ServerMessage) => {
    encodeMessage(message);
    counts.set(message.type, (counts.get(message.type) ?? 0) + 1);
  };
  return {
    toSession: (_sessionId, _target, message) => take(message),
    toPlayer: (_sessionId, _playerId, message) => take(message),
    toConnection: (_sessionId, _connectionId, message) => take(message),
  };
}

/** Plays the rehearsal; resolves with how many messages of each type it encoded. */
export async function rehearse(log: RoomLog, players = REHEARSAL_PLAYERS): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const storage = new MemoryRoomStorage();
  storage.addSession(program, { status: 'live', autoRotate: false });
  const room = new Room(SESSION_ID, { storage, broadcaster: encodingSink(counts), clock: systemClock, log, commitWindowMs: 0, onUnused: () => {} });
  try {
    await room.load(); // live without a snapshot: starts at the intro slide
    const joins: Promise<void>[] = [];
    for (let i = 0; i < players; i++) {
      const member = { connectionId: `rehearsal-${i}`, role: 'player' as const, playerId: `rehearsal-player-${i}`, name: `Player ${i}` };
      joins.push(room.connect(member, (initial) => void encodeMessage(initial)));
    }
    await Promise.all(joins);
    room.dispatch({ type: 'admin_next_question', connectionId: 'rehearsal-admin' });
    for (let i = 0; i < players; i++) {
      const raw = `{"type":"submit_answer","questionId":"${QUESTION_ID}","selectedIndex":${i % 4}}`;
      const parsed = parseClientMessage(raw, 'player');
      if (!parsed.ok || parsed.message.type !== 'submit_answer') continue;
      const { questionId, selectedIndex } = parsed.message;
      room.dispatch({ type: 'submit_answer', connectionId: `rehearsal-${i}`, playerId: `rehearsal-player-${i}`, questionId, selectedIndex });
    }
    await room.whenIdle(); // the last answer closed the question: results encoded, scores "stored"
  } finally {
    await room.dispose();
  }
  return counts;
}

import { describe, expect, it } from 'vitest';
import type { Program } from '../../game/engine/index.js';
import { REHEARSAL_PLAYERS, rehearse } from './rehearsal.js';

const quiet = () => {
  const errors: unknown[] = [];
  return { errors, log: { error: (details: object) => errors.push(details), warn: (details: object) => errors.push(details), info: () => {} } };
};

describe('the warm-up rehearsal', () => {
  // At full size, as a server runs it: over a hundred players share each loopback socket, so the
  // question's fan-out pings a socket that often at once (ws's client once cut such a socket, and
  // every real rehearsal failed after its 10 s deadline while small ones passed).
  it('plays a whole question to its full house of players and leaves nothing running', async () => {
    const errors: unknown[] = [];
    const log = { error: (details: object) => errors.push(details), warn: (details: object) => errors.push(details), info: () => {} };
    // Handles other than timers: the loopback's listener and sockets, the phones' worker (a MessagePort).
    const open = () => process.getActiveResourcesInfo().filter((resource) => resource !== 'Timeout');
    const before = open();
    const { sent, framesReceived } = await rehearse(log, REHEARSAL_PLAYERS);
    // Closed handles leave in the event loop's close phase, after the turn that closed them.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(open()).toEqual(before);
    expect(errors).toEqual([]);
    expect(sent.get('answer_accepted')).toBe(REHEARSAL_PLAYERS);
    // Every player answered, so the question ended early and each got a result.
    expect(sent.get('answer_result')).toBe(REHEARSAL_PLAYERS);
    expect(sent.get('question_end')).toBe(REHEARSAL_PLAYERS);
    // Everything sent crossed the loopback sockets: the join, the question, the accept, the end.
    expect(framesReceived).toBe([...sent.values()].reduce((a, b) => a + b, 0) + REHEARSAL_PLAYERS);
  });

  it('plays the session’s own first question when given its program, past the slides before it', async () => {
    const { errors, log } = quiet();
    const question = (id: string) => ({ id, text: `Question ${id}?`, choices: ['A', 'B', 'C', 'D'], correctIndex: 2, points: 100, timeLimitSeconds: 20, categories: [], media: null });
    const program: Program = {
      sessionId: 'the-real-session',
      items: [
        { itemType: 'slide', id: 'welcome', slideType: 'intro', slideData: {} },
        { itemType: 'slide', id: 'rules', slideType: 'rules', slideData: { text: 'Fastest right answer wins' } },
        { itemType: 'question', id: 'item-1', question: question('q-1') },
        { itemType: 'question', id: 'item-2', question: question('q-2') },
      ],
      media: [],
      mediaItemsPerTransition: 1,
    };
    const { sent, framesReceived } = await rehearse(log, 24, program);
    expect(errors).toEqual([]);
    // Answers naming q-1 were accepted: the rehearsal reached that question and asked it.
    expect(sent.get('answer_accepted')).toBe(24);
    expect(sent.get('answer_result')).toBe(24);
    expect(framesReceived).toBe([...sent.values()].reduce((a, b) => a + b, 0) + 24);
    expect(program.sessionId).toBe('the-real-session'); // the session's program is not touched
  });

  it('falls back to its own question when the program has none', async () => {
    const { errors, log } = quiet();
    const program: Program = { sessionId: 's', items: [{ itemType: 'slide', id: 'only', slideType: 'intro', slideData: {} }], media: [], mediaItemsPerTransition: 1 };
    const { sent } = await rehearse(log, 10, program);
    expect(errors).toEqual([]);
    expect(sent.get('answer_result')).toBe(10);
  });
});

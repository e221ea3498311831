import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_ID_LENGTH, MAX_REACTION_MS, submitAnswerSchema } from './messages.js';
import { parseClientMessage, wellFormedPick } from './parse.js';

/** Values a field of a pick might be sent with, at and around every bound the schema sets. */
const anyValue = fc.oneof(
  fc.constantFrom(0, 1, 3, 4, -1, 2.5, MAX_REACTION_MS, MAX_REACTION_MS + 1, 2 ** 53, Number.MAX_VALUE, null, true, '', '2', 'q1'),
  fc.integer({ min: -10, max: 10 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 3 }),
  fc.constantFrom('a'.repeat(MAX_ANSWER_ID_LENGTH), 'a'.repeat(MAX_ANSWER_ID_LENGTH + 1), 'é'.repeat(MAX_ANSWER_ID_LENGTH)),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 2 }), fc.integer(), { maxKeys: 1 }),
);

/** Mostly what the field should hold (so that one bad field at a time gets through to be judged), else anything. */
const field = (valid: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: anyValue, weight: 1 });

/** A submit_answer as JSON can carry it: each field present or not, extra fields too. */
const pickLike = fc.record(
  {
    questionId: field(fc.string({ minLength: 1, maxLength: 40 })),
    selectedIndex: field(fc.integer({ min: 0, max: 3 })),
    answerId: field(fc.string({ minLength: 1, maxLength: MAX_ANSWER_ID_LENGTH })),
    reactionMs: field(fc.integer({ min: 0, max: MAX_REACTION_MS })),
    extra: anyValue,
  },
  { requiredKeys: [] },
);

describe('the pick checked by hand', () => {
  it('gives the same verdict as the schema, and the same message when both accept it', () => {
    fc.assert(
      fc.property(pickLike, (fields) => {
        const data = { type: 'submit_answer', ...fields };
        const schema = submitAnswerSchema.safeParse(data);
        const pick = wellFormedPick(data);
        expect(pick !== null).toBe(schema.success);
        if (pick) expect(pick).toStrictEqual(schema.data);
      }),
      { numRuns: 5_000 },
    );
  });

  it('takes a well-formed pick as it is, drops fields it does not know, and words a bad one as before', () => {
    const raw = JSON.stringify({ type: 'submit_answer', questionId: 'q1', selectedIndex: 3, answerId: 'k3j9', reactionMs: 1200, note: 'hi' });
    expect(parseClientMessage(raw, 'player')).toEqual({
      ok: true,
      message: { type: 'submit_answer', questionId: 'q1', selectedIndex: 3, answerId: 'k3j9', reactionMs: 1200 },
    });
    expect(parseClientMessage('{"type":"submit_answer","questionId":"q1","selectedIndex":1,"reactionMs":-5}', 'player')).toMatchObject({
      ok: false,
      error: { message: 'Invalid submit_answer: reactionMs: reactionMs must not be negative' },
    });
    // Who may send it is still checked first.
    expect(parseClientMessage('{"type":"submit_answer","questionId":"q1","selectedIndex":1}', 'display')).toMatchObject({ ok: false, error: { code: 'auth/forbidden' } });
  });
});

import { describe, expect, it } from 'vitest';
import type { PlayerSessionState, ServerMessage } from '../../protocol/index';
import { audienceState, questionView } from '../common/realtime/testing/testFixtures';
import { linkSignature, parseJoinFailure, validateJoin } from './joinForm';
import { INITIAL_PLAYER_STATE, canPick, outcomeText, reducePlayer, type PlayerAction, type PlayerGameState } from './playerGameState';


const audience = audienceState;
const question = questionView;

function mine(overrides: Partial<PlayerSessionState> = {}): PlayerSessionState {
  return { ...audience(), view: 'player', playerId: 'p1', playerScore: 0, answered: false, selectedIndex: null, answerResult: null, ...overrides };
}

const server = (message: ServerMessage): PlayerAction => ({ type: 'server', message });
const run = (...actions: PlayerAction[]): PlayerGameState => actions.reduce(reducePlayer, INITIAL_PLAYER_STATE);

describe('player game state (SPEC §4 Player game)', () => {
  it('one pick locks every button and waits to be sent', () => {
    const s = run(server(mine({ playerScore: 12 })), { type: 'pick', index: 2 });
    expect(s.score).toBe(12);
    expect(s.answered).toBe(true);
    expect(s.selectedIndex).toBe(2);
    expect(canPick(s)).toBe(false);
    expect(s.pending).toEqual({ questionId: 'q1', selectedIndex: 2, sent: false });
    const again = reducePlayer(s, { type: 'pick', index: 0 });
    expect(again).toBe(s);
  });

  it('no pick outside a running question', () => {
    const s = run(server(mine({ phase: 'between', question: null })), { type: 'pick', index: 1 });
    expect(s.answered).toBe(false);
    expect(s.pending).toBeNull();
  });

  it('result colours the pick and sets the score; the end gives the between text', () => {
    let s = run(server(mine()), { type: 'pick', index: 1 }, { type: 'sent' }, server({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 1 }));
    expect(s.pending).toBeNull();
    s = reducePlayer(s, server({ type: 'answer_result', playerId: 'p1', questionId: 'q1', isCorrect: true, pointsEarned: 8, newScore: 20, rank: 14, players: 180, pointsToNextPlace: 3 }));
    expect(s.result).toEqual({ isCorrect: true, pointsEarned: 8 });
    expect(s.place).toEqual({ rank: 14, players: 180, pointsToNextPlace: 3 });
    expect(s.score).toBe(20);
    s = reducePlayer(s, server({ type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] }));
    expect(outcomeText(s.outcome)).toBe('Correct! +8 points');
    s = reducePlayer(s, server(audience({ phase: 'between', question: null, mediaItemCount: 1 })));
    expect(outcomeText(s.outcome)).toBe('Correct! +8 points');
  });

  it('wrong and missed answers give their texts', () => {
    const wrong = run(server(mine()), { type: 'pick', index: 0 }, server({ type: 'answer_result', playerId: 'p1', questionId: 'q1', isCorrect: false, pointsEarned: 0, newScore: 0, rank: 1, players: 1, pointsToNextPlace: null }), server({ type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] }));
    expect(outcomeText(wrong.outcome)).toBe('Incorrect');
    const missed = run(server(mine()), server({ type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] }));
    expect(outcomeText(missed.outcome)).toBe('Waiting for next question...');
    expect(outcomeText(null)).toBe('Waiting for next question...');
  });

  it('a new question releases the lock and clears the result', () => {
    let s = run(server(mine()), { type: 'pick', index: 0 }, server({ type: 'answer_result', playerId: 'p1', questionId: 'q1', isCorrect: false, pointsEarned: 0, newScore: 0, rank: 1, players: 1, pointsToNextPlace: null }));
    s = reducePlayer(s, server(audience({ phase: 'reveal', reveal: { questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] } })));
    expect(s.answered).toBe(true);
    s = reducePlayer(s, server(audience({ question: question('q2') })));
    expect(s.answered).toBe(false);
    expect(s.selectedIndex).toBeNull();
    expect(s.result).toBeNull();
    expect(canPick(s)).toBe(true);
  });

  it("a late result of the previous question neither locks nor marks the question on screen", () => {
    let s = run(server(mine()), { type: 'pick', index: 0 });
    s = reducePlayer(s, server(audience({ question: question('q2') })));
    expect(canPick(s)).toBe(true);
    s = reducePlayer(s, server({ type: 'answer_result', playerId: 'p1', questionId: 'q1', isCorrect: true, pointsEarned: 90, newScore: 90, rank: 1, players: 3, pointsToNextPlace: null }));
    expect(canPick(s)).toBe(true);
    expect(s.answered).toBe(false);
    expect(s.result).toBeNull();
    expect(s.place).toBeNull();
    // Its own result still counts.
    s = reducePlayer(s, { type: 'pick', index: 2 });
    s = reducePlayer(s, server({ type: 'answer_result', playerId: 'p1', questionId: 'q2', isCorrect: true, pointsEarned: 80, newScore: 170, rank: 1, players: 3, pointsToNextPlace: null }));
    expect(s.result).toEqual({ isCorrect: true, pointsEarned: 80 });
    expect(s.score).toBe(170);
  });

  it('a repeated state of the same question keeps the lock', () => {
    const s = run(server(mine()), { type: 'pick', index: 3 }, server(audience()));
    expect(s.answered).toBe(true);
    expect(s.selectedIndex).toBe(3);
  });

  it('a confirmed pick stays locked when a state sent before the pick arrives later (the confirmation came first on the datagram path)', () => {
    let s = run(server(mine()), { type: 'pick', index: 2 }, { type: 'sent' });
    s = reducePlayer(s, server({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 2, answerId: 'a1' }));
    s = reducePlayer(s, server(mine({ answered: false, selectedIndex: null })));
    expect(s.answered).toBe(true);
    expect(s.selectedIndex).toBe(2);
    expect(canPick(s)).toBe(false);
    // The next asking starts unlocked, and then the server's word holds again.
    s = reducePlayer(s, server(audience({ question: question('q2') })));
    expect(s.answered).toBe(false);
    s = reducePlayer(s, server(mine({ question: question('q2'), answered: false })));
    expect(s.answered).toBe(false);
  });

  describe('offline picks (sent once the socket is back, once)', () => {
    it('a pick that never went out is re-armed after the reconnect state, then sent once', () => {
      let s = run(server(mine()), { type: 'disconnected' }, { type: 'pick', index: 1 });
      expect(s.synced).toBe(false);
      s = reducePlayer(s, server(mine({ answered: false })));
      expect(s.synced).toBe(true);
      expect(s.pending).toEqual({ questionId: 'q1', selectedIndex: 1, sent: false });
      expect(s.answered).toBe(true);
      s = reducePlayer(s, { type: 'sent' });
      expect(s.pending?.sent).toBe(true);
    });

    it('a pick the server already has is not sent again', () => {
      let s = run(server(mine()), { type: 'pick', index: 1 }, { type: 'sent' }, { type: 'disconnected' });
      expect(s.pending?.sent).toBe(false);
      s = reducePlayer(s, server(mine({ answered: true, selectedIndex: 1 })));
      expect(s.pending).toBeNull();
      expect(s.answered).toBe(true);
    });

    it('a pick whose question ended while offline is dropped', () => {
      let s = run(server(mine()), { type: 'disconnected' }, { type: 'pick', index: 1 });
      s = reducePlayer(s, server(mine({ phase: 'between', question: null })));
      expect(s.pending).toBeNull();
    });

    it('a refused answer is not retried', () => {
      let s = run(server(mine()), { type: 'pick', index: 1 }, { type: 'sent' });
      s = reducePlayer(s, server({ type: 'error', code: 'answer/late', message: 'Too late' }));
      expect(s.pending).toBeNull();
      expect(s.answered).toBe(true);
    });

    it('a reconnect during the reveal restores the result', () => {
      const s = run(server(mine({ phase: 'reveal', reveal: { questionId: 'q1', correctIndex: 2, distribution: [0, 0, 0, 0] }, answered: true, selectedIndex: 2, answerResult: { isCorrect: true, pointsEarned: 9 }, playerScore: 9 })));
      expect(s.result).toEqual({ isCorrect: true, pointsEarned: 9 });
      expect(s.selectedIndex).toBe(2);
      expect(s.score).toBe(9);
      expect(outcomeText(s.outcome)).toBe('Correct! +9 points');
    });
  });
});

describe('join form (SPEC §5 Player join)', () => {
  it('trims, requires both fields, limits the name to 50 and checks the email', () => {
    expect(validateJoin({ name: '  Ana ', email: ' ana@example.com ' })).toEqual({ values: { name: 'Ana', email: 'ana@example.com' }, errors: {} });
    expect(validateJoin({ name: '   ', email: '' }).errors).toEqual({ name: 'Please enter your name', email: 'Please enter your email address' });
    expect(validateJoin({ name: 'x'.repeat(51), email: 'a@b.co' }).errors.name).toBe('Name must be at most 50 characters');
    expect(validateJoin({ name: 'x'.repeat(50), email: 'a@b.co' }).errors).toEqual({});
    expect(validateJoin({ name: 'A', email: 'not-an-email' }).errors.email).toBe('Please enter a valid email address');
  });

  it('reads t and sig only when both are present', () => {
    expect(linkSignature('?t=1700000000000&sig=abc')).toEqual({ timestamp: 1700000000000, signature: 'abc' });
    expect(linkSignature('?t=1700000000000')).toBeNull();
    expect(linkSignature('')).toBeNull();
  });

  it('reads the refusal of a registration', () => {
    expect(parseJoinFailure('{"message":"Scan the QR","returnToTheater":true}')).toEqual({ message: 'Scan the QR', returnToTheater: true });
    expect(parseJoinFailure('{"message":"Ended"}')).toEqual({ message: 'Ended', returnToTheater: false });
    expect(parseJoinFailure('oops')).toEqual({ returnToTheater: false });
  });

  it('turns a refused name into what to do, and a removal into the restricted screen', () => {
    const refused = parseJoinFailure('{"message":"Please choose another name","reason":"reserved"}');
    expect(refused).toMatchObject({ returnToTheater: false, nameHint: expect.stringMatching(/host.*Please choose another name/) });
    expect(parseJoinFailure('{"message":"Please choose another name","reason":"link"}').nameHint).toMatch(/Web addresses/);
    expect(parseJoinFailure('{"message":"Please choose another name","reason":"something new"}').nameHint).toMatch(/Please choose another name/);
    expect(parseJoinFailure('{"message":"You were removed from this game by the host","removed":true}')).toEqual({
      message: 'You were removed from this game by the host',
      returnToTheater: true,
      nameHint: undefined,
    });
  });
});

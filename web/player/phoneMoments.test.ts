import { describe, expect, it } from 'vitest';
import type { PlayerSessionState, ServerMessage } from '../../protocol/index';
import { plural, questionNumberText, titleWithLocalTime } from '../common/format';
import { audienceState } from '../common/realtime/testing/testFixtures';
import { DELIVERY_TEXT, answerStatusText, deliveryOf, finishedText, joinedText } from './phoneMoments';
import { INITIAL_PLAYER_STATE, reducePlayer, type PlayerAction, type PlayerGameState } from './playerGameState';

const mine = (overrides: Partial<PlayerSessionState> = {}): PlayerSessionState => ({
  ...audienceState(),
  view: 'player',
  playerId: 'p1',
  playerScore: 0,
  answered: false,
  selectedIndex: null,
  answerResult: null,
  ...overrides,
});
const server = (message: ServerMessage): PlayerAction => ({ type: 'server', message });
const run = (...actions: PlayerAction[]): PlayerGameState => actions.reduce(reducePlayer, INITIAL_PLAYER_STATE);
const questionEnd: ServerMessage = { type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [1, 0, 0, 0] };

describe("the phone's moments (DESIGN §17)", () => {
  it('writes the exact texts', () => {
    expect(joinedText('Ana')).toBe("You're in, Ana!");
    expect(finishedText({ rank: 2, players: 14 })).toBe('You finished #2 of 14');
    expect(DELIVERY_TEXT['saved offline']).toBe("Saved — it will be sent when you're back online");
    expect(questionNumberText({ number: 3, total: 10 })).toBe('Question 3 of 10');
  });

  it("a pick on a phone whose socket is down is saved, not 'submitted'; confirmed, it is locked", () => {
    const picked = run(server(mine()), { type: 'pick', index: 2 });
    expect(deliveryOf(picked, 'offline')).toBe('saved offline');
    expect(answerStatusText(picked, deliveryOf(picked, 'reconnecting'))).toBe("Saved — it will be sent when you're back online");
    expect(deliveryOf(picked, 'open')).toBe('sending');
    const accepted = reducePlayer(picked, server({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 2 }));
    expect(answerStatusText(accepted, deliveryOf(accepted, 'open'))).toBe('Answer submitted! Waiting for results...');
  });

  it("says time's up at a reveal without a pick, and the result after one", () => {
    const missed = run(server(mine()), server(questionEnd));
    expect(answerStatusText(missed, deliveryOf(missed, 'open'))).toBe("Time's up!");
    const wrong = run(
      server(mine()),
      { type: 'pick', index: 0 },
      server({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 0 }),
      server(questionEnd),
      server({ type: 'answer_result', playerId: 'p1', questionId: 'q1', isCorrect: false, pointsEarned: 0, newScore: 0, rank: 2, players: 2, pointsToNextPlace: 90 }),
    );
    expect(answerStatusText(wrong, deliveryOf(wrong, 'open'))).toBe('Incorrect');
    expect(wrong.live.correctIndex).toBe(1);
  });

  it('counts in words with the right form, and writes a pre-show time the way the browser does', () => {
    expect([0, 1, 2].map((n) => plural(n, 'player'))).toEqual(['0 players', '1 player', '2 players']);
    expect(titleWithLocalTime('Movie Trivia — Dune 19:30')).toBe(
      `Movie Trivia — Dune ${new Date(2000, 0, 1, 19, 30).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`,
    );
    expect(titleWithLocalTime('Friday Night')).toBe('Friday Night');
  });
});

/**
 * The early end is fair to players coming back (DESIGN §8), on the fake clock: a drop counts for
 * 5 s, a resume awaits the stored roster for 10 s, and neither ever runs past the deadline.
 */
import { describe, expect, it } from 'vitest';
import { FakeRunner, T0, effectsOf, makeProgram, makeQuestion } from './testing/testkit.js';
import { DROP_GRACE_MS, RESUME_GRACE_MS } from './presence.js';
import { parseLiveSnapshot, resumeEngine, type StoredAnswer } from './resume.js';
import type { LiveSnapshot } from './types.js';

const program = makeProgram([makeQuestion('q1', { timeLimitSeconds: 60 }), makeQuestion('q2')]);

/** A question open at T0 with these players connected before the start. */
function openQuestion(players: string[]): FakeRunner {
  const game = new FakeRunner(program);
  for (const p of players) game.connect(p);
  game.dispatch({ type: 'start' });
  return game;
}

const questionEnds = (game: FakeRunner) => game.messages('question_end').map((m) => m.atMs);

describe('a player whose phone drops', () => {
  it('still counts for 5 s: back in time, they can answer and the question waits for them', () => {
    const game = openQuestion(['ann', 'bob']);
    game.answer('ann', 'q1', 1);
    game.advance(1_000);
    game.dispatch({ type: 'player_disconnected', playerId: 'bob' });
    game.advance(DROP_GRACE_MS - 1); // Wi-Fi comes back just in time
    game.connect('bob');
    game.advance(10_000);
    expect(game.phase).toBe('question');
    game.answer('bob', 'q1', 2);
    expect(game.phase).toBe('reveal');
    expect(game.state.phase.kind === 'reveal' && game.state.phase.answers.size).toBe(2);
  });

  it('stops counting 5 s after the drop: the others need not wait until the deadline', () => {
    const game = openQuestion(['ann', 'bob', 'cid']);
    game.advance(2_000);
    game.dispatch({ type: 'player_disconnected', playerId: 'cid' });
    game.answer('ann', 'q1', 1);
    game.advance(1_000);
    game.answer('bob', 'q1', 1);
    expect(game.phase).toBe('question');
    expect(game.wakeAtMs).toBe(T0 + 4_000); // the next tick comes first
    game.advance(DROP_GRACE_MS - 1_000 - 1);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(questionEnds(game)).toEqual([T0 + 2_000 + DROP_GRACE_MS]);
  });

  it('counts from the last drop: a second drop starts a new 5 s', () => {
    const game = openQuestion(['ann', 'bob']);
    game.answer('ann', 'q1', 1);
    game.dispatch({ type: 'player_disconnected', playerId: 'bob' });
    game.advance(4_000);
    game.connect('bob');
    game.advance(500);
    game.dispatch({ type: 'player_disconnected', playerId: 'bob' });
    game.advance(DROP_GRACE_MS - 1);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(questionEnds(game)).toEqual([T0 + 4_500 + DROP_GRACE_MS]);
  });

  it('goes into the snapshot roster with the connected players', () => {
    const game = openQuestion(['ann', 'bob', 'cid']);
    game.dispatch({ type: 'player_disconnected', playerId: 'cid' });
    game.answer('ann', 'q1', 0);
    game.answer('bob', 'q1', 0);
    game.advance(DROP_GRACE_MS); // cid's 5 s are over: the question ends, the reveal is stored
    const persisted = effectsOf(game.log.map((l) => l.effect), 'persist').map((p) => p.live);
    expect(persisted.at(0)?.roster?.sort()).toEqual(['ann', 'bob', 'cid']);
    expect(persisted.at(-1)).toMatchObject({ phase: 'reveal' });
    expect(persisted.at(-1)?.roster?.sort()).toEqual(['ann', 'bob']);
  });
});

describe('after a resume', () => {
  /** The stored game: q1 open since T0 (deadline T0 + 60 s), these answers in, this roster. */
  function resumeAt(nowMs: number, roster: string[], answered: string[], live: Partial<LiveSnapshot> = {}): FakeRunner {
    const snapshot = parseLiveSnapshot({
      version: 1,
      itemIndex: 0,
      itemId: 'item-q1',
      phase: 'question',
      phaseStartedAtMs: T0,
      phaseEndsAtMs: T0 + 60_000,
      asking: 1,
      autoRotate: true,
      mediaItemCount: null,
      roster,
      ...live,
    });
    const answers: StoredAnswer[] = answered.map((playerId) => ({
      playerId,
      asking: 1,
      questionId: 'q1',
      selectedIndex: 1,
      isCorrect: true,
      pointsEarned: 90,
      elapsedMs: 4_000,
      answeredAtMs: T0 + 4_000,
    }));
    const game = new FakeRunner(program, { nowMs });
    const { state, effects } = resumeEngine({ program, autoRotate: true, live: snapshot, scores: [], answers, currentQuestionIndex: 0 }, nowMs);
    game.adopt(state, effects);
    return game;
  }

  it('waits for the roster: the first phones back cannot end the question for the others', () => {
    const resumedAt = T0 + 10_000;
    const game = resumeAt(resumedAt, ['ann', 'bob', 'cid', 'dan'], ['ann', 'bob']);
    // Half the roster is back, and answered: the other half still counts.
    game.connect('ann');
    game.connect('cid');
    game.answer('cid', 'q1', 2);
    expect(game.phase).toBe('question');
    // Dan comes back within the grace and answers: now everyone is in, the question ends.
    game.advance(4_000);
    game.connect('dan');
    game.answer('dan', 'q1', 3);
    expect(questionEnds(game)).toEqual([resumedAt + 4_000]);
    // Bob never came back, but his stored answer is scored.
    expect(game.messages('answer_result').map((m) => m.to).sort()).toEqual(['player:ann', 'player:bob', 'player:cid', 'player:dan']);
  });

  it('stops waiting 10 s after the resume for those who do not come back', () => {
    const resumedAt = T0 + 10_000;
    const game = resumeAt(resumedAt, ['ann', 'bob', 'cid', 'dan'], ['ann']);
    game.connect('ann');
    game.connect('bob');
    game.answer('bob', 'q1', 0);
    game.advance(RESUME_GRACE_MS - 1);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(questionEnds(game)).toEqual([resumedAt + RESUME_GRACE_MS]);
  });

  it('a player back from the roster who drops again counts 5 s from that drop, even past the resume grace', () => {
    const resumedAt = T0 + 10_000;
    const game = resumeAt(resumedAt, ['ann', 'bob'], ['ann']);
    game.connect('ann');
    game.connect('bob');
    game.advance(8_000);
    game.dispatch({ type: 'player_disconnected', playerId: 'bob' });
    game.advance(DROP_GRACE_MS - 1); // past the resume's 10 s
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(questionEnds(game)).toEqual([resumedAt + 8_000 + DROP_GRACE_MS]);
  });

  it('never runs past the deadline: a deadline inside the grace closes the question on time', () => {
    const resumedAt = T0 + 57_000; // 3 s left, the grace would run 10 s
    const game = resumeAt(resumedAt, ['ann', 'bob'], []);
    game.connect('ann');
    game.answer('ann', 'q1', 1);
    game.advance(2_999);
    expect(game.phase).toBe('question');
    game.advance(1);
    expect(questionEnds(game)).toEqual([T0 + 60_000]);
  });

  it('with an old snapshot (no roster) behaves as before: only connected players count', () => {
    const game = resumeAt(T0 + 10_000, [], ['ann'], { roster: undefined });
    game.connect('bob');
    game.answer('bob', 'q1', 1);
    expect(game.phase).toBe('reveal');
  });
});

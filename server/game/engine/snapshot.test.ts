import { describe, expect, it } from 'vitest';
import { FakeRunner, makeMedia, makeMediaBlock, makeProgram, makeQuestion, makeSlide } from './testing/testkit.js';
import { sameSnapshot, sameSnapshotInputs, toLiveSnapshot } from './snapshot.js';
import type { EngineState } from './types.js';

describe('the resume snapshot shortcut', () => {
  it('says "unchanged" only when the snapshot really is unchanged, over a whole game', () => {
    const program = makeProgram([makeQuestion('q1'), makeSlide('s1'), makeMediaBlock('b1', 2), makeQuestion('q2')], {
      media: [makeMedia('m1', 3), makeMedia('m2', 4)],
    });
    const game = new FakeRunner(program);
    const states: EngineState[] = [game.state];
    const record = () => states.push(game.state);
    game.connect('ann');
    record();
    game.connect('bob');
    record();
    game.dispatch({ type: 'start' });
    record();
    game.answer('ann', 'q1', 0);
    record();
    game.dispatch({ type: 'admin_pause' });
    record();
    for (let i = 0; i < 80; i++) {
      game.advance(500);
      record();
      if (i === 30) {
        game.dispatch({ type: 'admin_toggle_autorotate', autoRotate: true });
        record();
      }
    }
    game.dispatch({ type: 'admin_next_question' });
    record();
    game.dispatch({ type: 'stop' });
    record();

    let shortcuts = 0;
    for (let i = 1; i < states.length; i++) {
      const [a, b] = [states[i - 1], states[i]];
      const same = sameSnapshot(toLiveSnapshot(a), toLiveSnapshot(b));
      if (sameSnapshotInputs(a, b)) {
        shortcuts++;
        expect(same).toBe(true);
      }
    }
    // The shortcut is taken for ticks and answers, and refused at every phase change.
    expect(shortcuts).toBeGreaterThan(10);
    expect(shortcuts).toBeLessThan(states.length - 1);
  });
});

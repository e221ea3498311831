import { describe, expect, it } from 'vitest';
import { answeredText, currentAndNext, displaysText, phonesText } from '../../admin/live/adminSocket';
import { answersInText, splitPercents } from '../../display/DisplayQuestion';
import { nextPlaceText, placeText } from '../../player/playerGameState';
import type { SessionItem } from '../../../protocol/api';
import { INITIAL_LIVE_STATE, reduceLive } from './liveState';
import { audienceState, questionView } from './testing/testFixtures';

describe('live insight on the screens (DESIGN §10)', () => {
  it('counts answers in for the open question, and drops the count when another question starts', () => {
    let s = reduceLive(INITIAL_LIVE_STATE, audienceState());
    s = reduceLive(s, { type: 'answer_progress', questionId: 'q1', answered: 3, players: 7 });
    expect(s.progress).toEqual({ questionId: 'q1', answered: 3, players: 7 });
    s = reduceLive(s, { type: 'answer_progress', questionId: 'other', answered: 9, players: 9 });
    expect(s.progress?.answered).toBe(3);
    s = reduceLive(s, audienceState()); // the same asking again (a reconnect): the count stays
    expect(s.progress?.answered).toBe(3);
    s = reduceLive(s, audienceState({ question: questionView('q2') }));
    expect(s.progress).toBeNull();
  });

  it('keeps the split from question_end, and from a reveal state for a screen that joins late', () => {
    let s = reduceLive(INITIAL_LIVE_STATE, audienceState());
    s = reduceLive(s, { type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [2, 5, 0, 1] });
    expect(s.distribution).toEqual([2, 5, 0, 1]);
    s = reduceLive(s, audienceState({ phase: 'between', question: null }));
    expect(s.distribution).toBeNull();
    const late = reduceLive(INITIAL_LIVE_STATE, audienceState({ phase: 'reveal', reveal: { questionId: 'q1', correctIndex: 0, distribution: [4, 0, 0, 0] } }));
    expect(late.distribution).toEqual([4, 0, 0, 0]);
  });

  it('words the counts, the split, the place and the items', () => {
    expect(answeredText(142, 180)).toBe('142 / 180 answered');
    expect([phonesText(1), phonesText(3), displaysText(1), displaysText(0)]).toEqual([
      '1 phone in the game',
      '3 phones in the game',
      '1 display connected',
      '0 displays connected',
    ]);
    expect([answersInText(1), answersInText(12)]).toEqual(['1 answer in', '12 answers in']);
    expect(splitPercents([1, 2, 0, 1])).toEqual([25, 50, 0, 25]);
    expect(splitPercents([0, 0, 0, 0])).toEqual([0, 0, 0, 0]);
    expect(placeText({ rank: 14, players: 180, pointsToNextPlace: 12 })).toBe('#14 of 180');
    expect(nextPlaceText({ rank: 14, players: 180, pointsToNextPlace: 12 })).toBe('12 points to the next place');
    expect(nextPlaceText({ rank: 2, players: 3, pointsToNextPlace: 1 })).toBe('1 point to the next place');
    expect(nextPlaceText({ rank: 1, players: 3, pointsToNextPlace: null })).toBe("You're in the lead!");
    const item = (over: Partial<SessionItem>): SessionItem => ({
      id: 'i', sessionId: 's', orderIndex: 0, itemType: 'slide', questionId: null, question: null, slideType: 'rules', slideData: {}, mediaItemCount: null, ...over,
    });
    const items = [
      item({ itemType: 'question', question: { id: 'q', text: 'Who directed Jaws?', categories: [], points: 10, timeLimitSeconds: 20 } }),
      item({ slideType: 'rules' }),
      item({ itemType: 'media_block', slideType: null, mediaItemCount: 3 }),
    ];
    expect(currentAndNext(items, 0)).toEqual({ current: 'Who directed Jaws?', next: 'Rules Slide' });
    expect(currentAndNext(items, 2)).toEqual({ current: 'Media Block (3)', next: 'Who directed Jaws?' });
    expect(currentAndNext(items, null)).toEqual({ current: '—', next: 'Who directed Jaws?' });
  });
});

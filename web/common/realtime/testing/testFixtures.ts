import type { AudienceSessionState, QuestionView } from '../../../../protocol/index';

/** Test fixtures: a question as screens receive it, and an audience session_state around it. */
export const questionView = (id: string): QuestionView => ({
  id,
  text: `Question ${id}`,
  choices: ['A', 'B', 'C', 'D'],
  points: 10,
  timeLimitSeconds: 5,
  categories: [],
  media: null,
});

export function audienceState(overrides: Partial<AudienceSessionState> = {}): AudienceSessionState {
  return {
    type: 'session_state',
    view: 'audience',
    sessionId: 's',
    status: 'live',
    phase: 'question',
    serverTime: 0,
    endsAt: 5000,
    timeRemaining: 5,
    slide: null,
    reveal: null,
    leaderboard: [],
    media: [],
    mediaItemCount: null,
    question: questionView('q1'),
    ...overrides,
  };
}

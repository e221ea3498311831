import { describe, expect, it } from 'vitest';
import type { AudienceSessionState, MediaView, ServerMessage } from '../../../protocol/index';
import { INITIAL_LIVE_STATE, reduceLive, type LiveState } from './liveState';
import { audienceState, questionView } from './testing/testFixtures';
import { mediaDurationMs, phoneSource, rotationItems, rotationKey } from './mediaRotation';
import { ServerClock, secondsUntil } from './serverClock';
import { PERMANENT_CLOSE_CODES, RECONNECT_MAX_DELAY_MS, RECONNECT_MIN_DELAY_MS, attemptUrl, reconnectDelayMs, sessionSocketUrl, takeDatagram, takeFromRetired } from './timings';
import { formatCountdown } from './useCountdown';
import { readableTextOn, themeVariables, liveTheme } from './themeStyle';

describe("a retired socket's messages (DESIGN §14)", () => {
  it('takes everything from the newest retired socket until its replacement opens', () => {
    expect(takeFromRetired({ newestRetired: true, replacementOpen: false, accepted: false })).toBe(true);
  });

  it('then only what the caller accepts (the confirmation): older frames may come late', () => {
    expect(takeFromRetired({ newestRetired: true, replacementOpen: true, accepted: false })).toBe(false);
    expect(takeFromRetired({ newestRetired: true, replacementOpen: true, accepted: true })).toBe(true);
  });

  it('takes from an older retired socket only what the caller accepts, open replacement or not', () => {
    expect(takeFromRetired({ newestRetired: false, replacementOpen: false, accepted: false })).toBe(false);
    expect(takeFromRetired({ newestRetired: false, replacementOpen: false, accepted: true })).toBe(true);
  });
});

describe('what the phone takes from the datagram path (docs/REALTIME.md)', () => {
  it('takes the pick’s confirmation whatever states came before', () => {
    const accepted = { type: 'answer_accepted', questionId: 'q1', selectedIndex: 2, answerId: 'a1' };
    expect(takeDatagram(accepted, null)).toBe(true);
    expect(takeDatagram(accepted, 5_000)).toBe(true);
  });

  it('takes a question’s state newer than every state the phone has had', () => {
    expect(takeDatagram(audienceState({ serverTime: 1_000 }), null)).toBe(true);
    expect(takeDatagram(audienceState({ serverTime: 1_001 }), 1_000)).toBe(true);
  });

  it('refuses a copy as old as, or older than, a state already had: a late repeat never reopens a question', () => {
    expect(takeDatagram(audienceState({ serverTime: 1_000 }), 1_000)).toBe(false);
    expect(takeDatagram(audienceState({ serverTime: 999 }), 1_000)).toBe(false);
  });

  it('refuses any state that is not a question, and every other message', () => {
    expect(takeDatagram(audienceState({ phase: 'reveal', serverTime: 2_000 }), 1_000)).toBe(false);
    expect(takeDatagram(audienceState({ phase: 'between', serverTime: 2_000 }), null)).toBe(false);
    const others: ServerMessage[] = [
      { type: 'timer_tick', questionId: 'q1', timeRemaining: 3, serverTime: 2_000, endsAt: 5_000 },
      { type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] },
      { type: 'pong', id: 1, serverTime: 2_000 },
      { type: 'error', code: 'answer/late', message: "Time's up", questionId: 'q1' },
    ];
    for (const message of others) expect(takeDatagram(message, null)).toBe(false);
  });
});

describe('reconnect timings (SPEC §9)', () => {
  it('grows from 1000 ms to at most 5000 ms, each delay drawn from a window half its base wide', () => {
    const earliest = () => 0;
    expect([0, 1, 2, 3, 10].map((a) => reconnectDelayMs(a, earliest))).toEqual([1000, 1000, 2000, 2500, 2500]);
    const latest = () => 1;
    expect([0, 1, 2, 3, 10].map((a) => reconnectDelayMs(a, latest))).toEqual([1500, 2000, 4000, 5000, 5000]);
    expect(reconnectDelayMs(2, () => 0.5)).toBe(3000);
  });

  it('spreads even the first retry: a full house dropped at once does not come back on one millisecond', () => {
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const firstRetries = Array.from({ length: 2000 }, () => reconnectDelayMs(0, random));
    expect(Math.min(...firstRetries)).toBeGreaterThanOrEqual(RECONNECT_MIN_DELAY_MS);
    expect(Math.max(...firstRetries)).toBeLessThanOrEqual(1500);
    // Spread over the whole window: no 50 ms slice holds more than a few times its share (100).
    const perSlice = new Map<number, number>();
    for (const delay of firstRetries) perSlice.set(Math.floor(delay / 50), (perSlice.get(Math.floor(delay / 50)) ?? 0) + 1);
    expect(perSlice.size).toBeGreaterThanOrEqual(10);
    expect(Math.max(...perSlice.values())).toBeLessThan(300);
  });

  it('always stays within 1000–5000 ms', () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      const delay = reconnectDelayMs(attempt);
      expect(delay).toBeGreaterThanOrEqual(RECONNECT_MIN_DELAY_MS);
      expect(delay).toBeLessThanOrEqual(RECONNECT_MAX_DELAY_MS);
    }
  });

  it('gives up only on refusals that a retry cannot fix', () => {
    expect([...PERMANENT_CLOSE_CODES].sort()).toEqual([4400, 4401, 4403, 4404, 4410]);
    expect(PERMANENT_CLOSE_CODES.has(1006)).toBe(false);
    expect(PERMANENT_CLOSE_CODES.has(1001)).toBe(false);
  });

  it('adds one attempt’s own parameters to the socket address (the phone’s pick in a reconnect), encoded', () => {
    const base = 'wss://quiz.example/ws?type=player&sessionId=s1';
    expect(attemptUrl(base, undefined)).toBe(base);
    expect(attemptUrl(base, {})).toBe(base);
    const pick = JSON.stringify({ type: 'submit_answer', questionId: 'q 1&x', selectedIndex: 2, answerId: 'a', reactionMs: 10 });
    const url = new URL(attemptUrl(base, { answer: pick }));
    expect(url.searchParams.get('sessionId')).toBe('s1');
    expect(JSON.parse(url.searchParams.get('answer')!)).toMatchObject({ questionId: 'q 1&x', selectedIndex: 2 });
    expect(attemptUrl('ws://h/ws', { a: 'b' })).toBe('ws://h/ws?a=b');
  });

  it('builds the socket address on the page origin', () => {
    expect(sessionSocketUrl({ sessionId: 's 1', type: 'display' }, { protocol: 'https:', host: 'cinema.example' })).toBe(
      'wss://cinema.example/ws?sessionId=s+1&type=display',
    );
    expect(sessionSocketUrl({ sessionId: 'a', type: 'player', playerId: 'p', playerToken: 't' }, { protocol: 'http:', host: 'h:3000' })).toBe(
      'ws://h:3000/ws?sessionId=a&type=player&playerId=p&playerToken=t',
    );
  });
});

describe('server clock', () => {
  it('takes the least-delayed sample as the offset', () => {
    let local = 1_000_000;
    const clock = new ServerClock(() => local);
    expect(clock.now()).toBe(local);
    clock.observe(local + 5_000 - 120); // 120 ms in transit
    clock.observe(local + 5_000 - 20); // 20 ms in transit: closest to the truth
    clock.observe(local + 5_000 - 300);
    expect(clock.offsetMs()).toBe(4_980);
    local += 1_000;
    expect(clock.now()).toBe(1_001_000 + 4_980);
  });

  it('forgets old samples so a clock adjustment is followed', () => {
    let local = 0;
    const clock = new ServerClock(() => local);
    clock.observe(10_000);
    for (let i = 0; i < 8; i++) {
      local += 1000;
      clock.observe(local + 2_000);
    }
    expect(clock.offsetMs()).toBe(2_000);
  });

  it('rounds remaining time up, like the server ticks, and never below zero', () => {
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 1)).toBe(10);
    expect(secondsUntil(10_000, 999)).toBe(10);
    expect(secondsUntil(10_000, 1_000)).toBe(9);
    expect(secondsUntil(10_000, 12_000)).toBe(0);
    expect(formatCountdown(8)).toBe('0:08');
    expect(formatCountdown(75)).toBe('1:15');
  });
});


const state = (overrides: Partial<AudienceSessionState>): AudienceSessionState => audienceState({ serverTime: 1000, endsAt: 6000, ...overrides });

const fold = (...messages: Parameters<typeof reduceLive>[1][]): LiveState => messages.reduce(reduceLive, INITIAL_LIVE_STATE);

describe('live state (SPEC §4 Display screen)', () => {
  it('shows a question with its timer and no answer', () => {
    const s = fold(state({}));
    expect(s.ready).toBe(true);
    expect(s.question?.id).toBe('q1');
    expect(s.correctIndex).toBeNull();
    expect(s.endsAt).toBe(6000);
    expect(s.asking).toBe(1);
  });

  it('marks the end and the correct choice on question_end, and follows ticks', () => {
    let s = fold(state({}), { type: 'timer_tick', questionId: 'q1', timeRemaining: 3, serverTime: 3000, endsAt: 6100 });
    expect(s.timeRemaining).toBe(3);
    expect(s.endsAt).toBe(6100);
    s = reduceLive(s, { type: 'timer_tick', questionId: 'other', timeRemaining: 1, serverTime: 3000, endsAt: 1 });
    expect(s.endsAt).toBe(6100);
    s = reduceLive(s, { type: 'question_end', questionId: 'q1', correctIndex: 2, distribution: [0, 0, 0, 0] });
    expect(s.phase).toBe('reveal');
    expect(s.correctIndex).toBe(2);
    expect(s.question?.id).toBe('q1');
  });

  it('takes a session_info announcement and keeps it across later states', () => {
    const info = { id: 's1', title: 'Renamed', status: 'live' as const, theme: { primaryColor: '#123456' }, mediaItemsPerTransition: 2, prizeDraw: { enabled: false, prize: '', consentText: '' } };
    let s = fold(state({}), { type: 'session_info', session: info });
    expect(s.sessionInfo).toEqual(info);
    s = reduceLive(s, state({ phase: 'reveal', reveal: { questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] } }));
    expect(s.sessionInfo?.title).toBe('Renamed');
  });

  it('a reveal state (late joiner) carries the correct choice', () => {
    const s = fold(state({ phase: 'reveal', reveal: { questionId: 'q1', correctIndex: 3, distribution: [0, 0, 0, 0] } }));
    expect(s.correctIndex).toBe(3);
  });

  it('a slide clears the question; a state with neither carries the media count', () => {
    let s = fold(state({}), state({ phase: 'slide', question: null, slide: { itemId: 'i', slideType: 'intro', slideData: {} } }));
    expect(s.question).toBeNull();
    expect(s.slide?.slideType).toBe('intro');
    s = reduceLive(s, state({ phase: 'between', question: null, mediaItemCount: 2, endsAt: null }));
    expect(s.slide).toBeNull();
    expect(s.mediaItemCount).toBe(2);
  });

  it('counts a new asking of the same question in the next loop, not a repeated state', () => {
    let s = fold(state({}), state({}));
    expect(s.asking).toBe(1);
    s = reduceLive(s, state({ phase: 'reveal', reveal: { questionId: 'q1', correctIndex: 0, distribution: [0, 0, 0, 0] } }));
    s = reduceLive(s, state({}));
    expect(s.asking).toBe(2);
    expect(s.correctIndex).toBeNull();
  });

  it('shows prize winners until the game moves to another phase', () => {
    const finished = state({ status: 'finished', phase: 'finished', question: null, endsAt: null });
    let s = fold(finished, { type: 'winners', prize: 'Popcorn', names: ['Ana', 'Ben'] });
    expect(s.winners).toEqual({ prize: 'Popcorn', names: ['Ana', 'Ben'] });
    s = reduceLive(s, finished); // the same state again (a reconnect's resend) keeps them
    expect(s.winners).not.toBeNull();
    s = reduceLive(s, state({}));
    expect(s.winners).toBeNull();
  });

  it('keeps winners shown at a question\'s end through the transition, until the next item', () => {
    const reveal = state({ phase: 'reveal', reveal: { questionId: 'q1', correctIndex: 0, distribution: [1, 0, 0, 0] } });
    let s = fold(state({}), reveal, { type: 'winners', prize: 'Popcorn', names: ['Ana'] });
    s = reduceLive(s, state({ phase: 'between', question: null, endsAt: 9000 }));
    expect(s.winners).toEqual({ prize: 'Popcorn', names: ['Ana'] });
    s = reduceLive(s, state({ phase: 'question', question: questionView('q2') }));
    expect(s.winners).toBeNull();
  });

  it('knows the question number and the lobby from the server', () => {
    const s = fold(state({ questionNumber: 3, totalQuestions: 10 }), { type: 'presence', players: 2, displays: 1, joined: 4, recentNames: ['Cy', 'Bo'] });
    expect(s.questionNumber).toEqual({ number: 3, total: 10 });
    expect(s.lobby).toEqual({ joined: 4, recentNames: ['Cy', 'Bo'] });
    expect(reduceLive(s, state({ phase: 'between', question: null })).questionNumber).toBeNull();
  });

  it('refreshes the leaderboard when one is sent', () => {
    const leaderboard = [{ player: { id: 'p', name: 'Ana' }, score: { pointsTotal: 9 } }];
    expect(fold(state({}), { type: 'leaderboard_update', leaderboard }).leaderboard).toEqual(leaderboard);
  });
});

const media = (id: string, duration: number, phone: string | null = null): MediaView => ({
  id,
  filePath: `/media/${id}`,
  phoneFilePath: phone,
  fileType: 'image',
  duration,
  promotionalLink: null,
});

describe('interstitial media (SPEC §4)', () => {
  it('rotates through the lesser of the list size and the count', () => {
    const list = [media('a', 2), media('b', 3), media('c', 4)];
    expect(rotationItems(list, 2).map((m) => m.id)).toEqual(['a', 'b']);
    expect(rotationItems(list, 10).map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(rotationItems(list, null)).toEqual([]);
    expect(rotationItems([], 3)).toEqual([]);
  });

  it('gives each item its own duration, 3 s when missing', () => {
    expect(mediaDurationMs(media('a', 7))).toBe(7000);
    expect(mediaDurationMs(media('a', 0))).toBe(3000);
  });

  it('prefers the phone file on the phone; a changed list restarts the rotation', () => {
    expect(phoneSource(media('a', 1, '/media/small'))).toBe('/media/small');
    expect(phoneSource(media('a', 1))).toBe('/media/a');
    expect(rotationKey([media('a', 1)])).not.toBe(rotationKey([media('a', 1), media('b', 1)]));
  });
});

describe('theme on the live screens (SPEC §3)', () => {
  it('fills every field with the defaults, and an unparseable theme is the empty theme', () => {
    const vars = themeVariables(liveTheme('{not json')) as Record<string, string>;
    expect(vars['--mq-primary']).toBe('#E74C52');
    expect(vars['--mq-secondary']).toBe('#6366F1');
    expect(vars['--mq-bg']).toBe('#0A0A0A');
    expect(vars['--mq-text']).toBe('#FFFFFF');
    expect(vars['--mq-success']).toBe('#22C55E');
    expect(vars['--mq-warning']).toBe('#F59E0B');
    expect(vars['--mq-overlay']).toBe('0.3');
    expect(vars['--mq-blur']).not.toBe('none');
  });

  it('maps the overlay to 10/30/50% and turns the blur off', () => {
    const of = (theme: unknown) => themeVariables(liveTheme(theme)) as Record<string, string>;
    expect(of({ backgroundOverlay: 'light' })['--mq-overlay']).toBe('0.1');
    expect(of({ backgroundOverlay: 'dark' })['--mq-overlay']).toBe('0.5');
    expect(of({ backgroundOverlay: 'none' })['--mq-overlay']).toBe('0');
    expect(of({ backdropBlur: false })['--mq-blur']).toBe('none');
    expect(of(JSON.stringify({ primaryColor: '#123456' }))['--mq-primary']).toBe('#123456');
  });

  it('writes white on dark fills and black on light ones', () => {
    expect(readableTextOn('#E74C52')).toBe('#FFFFFF');
    expect(readableTextOn('#FF00FF')).toBe('#FFFFFF');
    expect(readableTextOn('#39FF14')).toBe('#000000');
    expect(readableTextOn('#D4AF37')).toBe('#000000');
    expect(readableTextOn('#fff')).toBe('#000000');
    expect(readableTextOn('gold')).toBe('#FFFFFF');
  });
});

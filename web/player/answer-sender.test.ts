import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage, SubmitAnswerMessage } from '../../protocol/index';
import { DATAGRAM_REPEAT_MS } from '../common/realtime/timings';
import {
  ANSWER_ID_CHARS, AnswerSender, type AnswerStatus, BEACON_GROWTH, BEACON_INTERVAL_MS, BEACONS_AT_FULL_PACE, MIN_ACK_TIMEOUT_MS, REDIAL_GROWTH, REDIAL_MS, SILENT_SOCKET_MS, newAnswerId,
} from './answer-sender';
import { DELIVERY_TEXT, deliveryOf } from './phoneMoments';
import { INITIAL_PLAYER_STATE } from './playerGameState';

/** A pick on a socket that keeps talking but never confirms: its second path opens at 1.5 s, not before. */
function pickThenSecondPath(sender: AnswerSender, reconnect: ReturnType<typeof vi.fn>): void {
  sender.questionShown('q1');
  sender.pick('q1', 0);
  vi.advanceTimersByTime(MIN_ACK_TIMEOUT_MS - 1);
  expect(reconnect).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(reconnect).toHaveBeenCalledTimes(1);
}

/**
 * A sender on vitest's fake timers, with a socket that records what went out. While `signal.on`,
 * the server's ticks arrive every second (a running question), as the phone hears them.
 */
function harness() {
  const sent: Record<string, unknown>[] = [];
  const statuses: AnswerStatus[] = [];
  const signal = { on: true };
  let open = true;
  let ids = 0;
  // What the phone's socket hook would put in the new socket's upgrade request, per reconnect.
  const upgrades: (Record<string, string> | undefined)[] = [];
  const reconnect = vi.fn(() => {
    open = false;
    upgrades.push(sender.upgradeParams());
  });
  // Picks sent over HTTP, with when (the fake clock).
  const beacons: { atMs: number; message: Record<string, unknown> }[] = [];
  const sender = new AnswerSender({
    send: (message) => {
      if (!open) return false;
      sent.push(message as Record<string, unknown>);
      return true;
    },
    reconnect,
    beacon: (message) => beacons.push({ atMs: Date.now(), message: { ...message } }),
    now: () => Date.now(),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    newId: () => `pick-${++ids}`,
    onStatus: (status) => statuses.push(status),
  });
  sender.socketOpened();
  setInterval(() => {
    if (signal.on && open) sender.heard();
  }, 1_000);
  const reopen = () => {
    open = true;
    signal.on = true;
    sender.socketOpened();
  };
  return { sender, sent, statuses, reconnect, reopen, signal, upgrades, beacons };
}

const accepted = (answerId: string): ServerMessage => ({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 2, answerId });

describe('the phone’s answer path', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('sends the pick with its id and the reaction time from the question shown to the tap', () => {
    const { sender, sent, statuses } = harness();
    sender.questionShown('q1');
    vi.advanceTimersByTime(3_250);
    sender.pick('q1', 2);
    expect(sent).toEqual([{ type: 'submit_answer', questionId: 'q1', selectedIndex: 2, answerId: 'pick-1', reactionMs: 3_250 }]);
    expect(sender.current).toBe('sending');
    sender.onMessage(accepted('pick-1'));
    expect(statuses).toEqual(['sending', 'counted']);
  });

  it('treats a socket silent for 1.5 s as dead: says so, reconnects with the pick in the upgrade, and resends it on the new socket', () => {
    const { sender, sent, reconnect, reopen, signal, upgrades } = harness();
    sender.questionShown('q1');
    vi.advanceTimersByTime(2_000); // the ticks at +1 s and +2 s arrived
    signal.on = false; // the loss of signal starts as the player taps
    sender.pick('q1', 2);
    vi.advanceTimersByTime(SILENT_SOCKET_MS - 1);
    expect(reconnect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(sender.current).toBe('offline');
    // The new socket's upgrade request carries the same pick, as the socket would.
    expect(upgrades).toEqual([{ answer: JSON.stringify(sent[0]) }]);
    // The phone says so even though the browser still thinks the socket is open.
    const picked = { ...INITIAL_PLAYER_STATE, answered: true };
    expect(DELIVERY_TEXT[deliveryOf(picked, 'open', sender.current)!]).toBe("Saved — it will be sent when you're back online");
    vi.advanceTimersByTime(4_000); // the outage
    reopen();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]); // same id, same reaction: the server answers it idempotently
    expect(sender.current).toBe('sending');
    sender.onMessage(accepted('pick-1'));
    expect(sender.current).toBe('counted');
    expect(sender.upgradeParams()).toBeUndefined();
  });

  it('dials again a new socket that has not opened after 2.5 s while the pick waits, each time a little later, and stops once one opens', () => {
    const { sender, reconnect, reopen, signal, upgrades } = harness();
    sender.questionShown('q1');
    signal.on = false; // a loss of signal: the new socket's SYN goes nowhere
    sender.pick('q1', 1);
    vi.advanceTimersByTime(SILENT_SOCKET_MS);
    expect(reconnect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(REDIAL_MS - 1);
    expect(reconnect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(reconnect).toHaveBeenCalledTimes(2); // TCP would resend that SYN only at 3 s, then 7 s
    expect(upgrades[1]).toEqual(upgrades[0]); // the same pick rides in each upgrade request
    // The next waits longer: a server slow to accept is not redialled by every phone every 2.5 s.
    vi.advanceTimersByTime(REDIAL_MS * REDIAL_GROWTH - 1);
    expect(reconnect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1);
    expect(reconnect).toHaveBeenCalledTimes(3);
    reopen();
    sender.onMessage(accepted('pick-1'));
    vi.advanceTimersByTime(10 * REDIAL_MS);
    expect(reconnect).toHaveBeenCalledTimes(3);
  });

  it('dials again after 2.5 round trips on a slow link, and never while no pick waits', () => {
    const { sender, reconnect, signal } = harness();
    sender.observeRtt(1_600);
    sender.socketClosed(); // dropped between questions: the socket hook's own retries take over
    vi.advanceTimersByTime(10_000);
    expect(reconnect).not.toHaveBeenCalled();
    sender.socketOpened();
    sender.questionShown('q1');
    signal.on = false;
    sender.pick('q1', 1);
    sender.socketClosed(); // the socket drops: the hook reconnects on its own, and the redial is timed from here
    expect(sender.current).toBe('offline');
    vi.advanceTimersByTime(4_000 - 1);
    expect(reconnect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reconnect).toHaveBeenCalledTimes(1);
  });

  it('tries a new socket at once when the pick is made on a socket already silent for 1.5 s, and leaves a silent socket alone before the tap', () => {
    const { sender, sent, reconnect, signal, upgrades } = harness();
    sender.questionShown('q1');
    vi.advanceTimersByTime(1_000);
    signal.on = false;
    vi.advanceTimersByTime(SILENT_SOCKET_MS + 200);
    // Nothing picked: the socket is not replaced (once the signal is back a pick goes straight through it).
    expect(reconnect).not.toHaveBeenCalled();
    sender.pick('q1', 1);
    expect(sent).toHaveLength(1); // still handed to the old socket: TCP may yet deliver it
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(upgrades[0]).toEqual({ answer: JSON.stringify(sent[0]) });
    expect(sender.current).toBe('offline');
  });

  it('measures round trips only while no countdown runs (a ping lost in a loss of signal would hold the pick behind it)', () => {
    const { sender } = harness();
    expect(sender.wantsPing).toBe(true);
    sender.questionShown('q1');
    expect(sender.wantsPing).toBe(false);
    sender.onMessage({ type: 'timer_tick', questionId: 'q1', timeRemaining: 1, serverTime: 0, endsAt: 0 });
    expect(sender.wantsPing).toBe(true);
  });

  it('does not watch the socket once the pick is counted, or between questions', () => {
    const counted = harness();
    counted.sender.questionShown('q1');
    counted.sender.pick('q1', 2);
    counted.sender.onMessage(accepted('pick-1'));
    counted.signal.on = false;
    vi.advanceTimersByTime(10_000);
    expect(counted.reconnect).not.toHaveBeenCalled();

    const between = harness();
    between.signal.on = false;
    vi.advanceTimersByTime(10_000);
    expect(between.reconnect).not.toHaveBeenCalled();
  });

  it('counts the silence from the last thing heard: a late tick puts the verdict off', () => {
    const { sender, reconnect, signal } = harness();
    sender.observeRtt(1_000); // the confirmation may take 3 s
    sender.questionShown('q1');
    vi.advanceTimersByTime(1_000); // a tick, then nothing
    signal.on = false;
    vi.advanceTimersByTime(1_000);
    sender.pick('q1', 0); // silent for 1 s already: dead in 0.5 s unless something comes
    vi.advanceTimersByTime(300);
    sender.heard(); // a tick TCP resent late
    vi.advanceTimersByTime(1_199);
    expect(reconnect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1); // 1.5 s after the send: the second path, not yet a verdict
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(sender.current).toBe('sending');
  });

  it('gives up on a socket that keeps talking but never confirms after 1.5 s when no round trip was measured', () => {
    const { sender, reconnect, upgrades } = harness();
    pickThenSecondPath(sender, reconnect);
    expect(JSON.parse(upgrades[0]!.answer)).toMatchObject({ type: 'submit_answer', questionId: 'q1', selectedIndex: 0, answerId: 'pick-1' });
  });

  it('on a slow link that keeps talking, tries a second path at 1.5 s still "sending", and says offline only after three round trips', () => {
    const { sender, sent, reconnect, reopen, upgrades } = harness();
    sender.observeRtt(900);
    sender.observeRtt(700);
    expect(sender.ackTimeoutMs()).toBe(2_700);
    pickThenSecondPath(sender, reconnect);
    expect(upgrades[0]).toEqual({ answer: JSON.stringify(sent[0]) });
    expect(sender.current).toBe('sending'); // on two paths now, neither known dead
    vi.advanceTimersByTime(2_700 - MIN_ACK_TIMEOUT_MS - 1);
    expect(sender.current).toBe('sending');
    vi.advanceTimersByTime(1);
    expect(sender.current).toBe('offline'); // the ack timeout: say so
    expect(reconnect).toHaveBeenCalledTimes(1); // one replacement at a time
    reopen();
    expect(sent).toHaveLength(2);
    expect(sender.current).toBe('sending');
    // One early second path per pick: the new socket then waits the full ack timeout.
    vi.advanceTimersByTime(2_699);
    expect(reconnect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(reconnect).toHaveBeenCalledTimes(2);
  });

  it('takes a duplicate acknowledgement in its stride and ignores one for another pick', () => {
    const { sender, statuses, reconnect } = harness();
    sender.questionShown('q1');
    sender.pick('q1', 2);
    sender.onMessage(accepted('someone-else'));
    expect(sender.current).toBe('sending');
    sender.onMessage(accepted('pick-1'));
    sender.onMessage(accepted('pick-1')); // the resend's copy
    vi.advanceTimersByTime(10_000);
    expect(statuses).toEqual(['sending', 'counted']);
    expect(reconnect).not.toHaveBeenCalled();
  });

  it('keeps a pick made offline and sends it once a socket is back', () => {
    const { sender, sent, reopen } = harness();
    sender.socketClosed();
    sender.questionShown('q1');
    sender.pick('q1', 1);
    expect(sent).toHaveLength(0);
    expect(sender.current).toBe('offline');
    reopen();
    expect(sent).toHaveLength(1);
    expect(sender.current).toBe('sending');
  });

  it('says "too late" when the question closes first or the server refuses it as late, and stops resending', () => {
    const first = harness();
    first.sender.questionShown('q1');
    first.sender.pick('q1', 1);
    first.sender.socketClosed();
    first.sender.onMessage({ type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] });
    expect(first.sender.current).toBe('late');
    first.reopen();
    expect(first.sent).toHaveLength(1);

    const second = harness();
    second.sender.questionShown('q1');
    second.sender.pick('q1', 1);
    second.sender.onMessage({ type: 'error', code: 'answer/late', message: "Time's up", questionId: 'q1', answerId: 'pick-1' });
    expect(second.sender.current).toBe('late');
    vi.advanceTimersByTime(5_000);
    expect(second.reconnect).not.toHaveBeenCalled();
  });

  it('sends the pick over HTTP from the moment its socket is given up, every 0.75 s, until a socket opens', () => {
    const { sender, sent, reopen, signal, beacons } = harness();
    sender.questionShown('q1');
    vi.advanceTimersByTime(2_000);
    signal.on = false;
    sender.pick('q1', 2);
    const pickedAtMs = Date.now();
    // Nothing over HTTP while the socket may still be fine.
    vi.advanceTimersByTime(SILENT_SOCKET_MS - 1);
    expect(beacons).toHaveLength(0);
    vi.advanceTimersByTime(1); // silent 1.5 s: given up, a new socket dialled, the pick over HTTP at once
    vi.advanceTimersByTime(3 * BEACON_INTERVAL_MS);
    expect(beacons.map((b) => b.atMs - pickedAtMs)).toEqual([0, 1, 2, 3].map((n) => SILENT_SOCKET_MS + n * BEACON_INTERVAL_MS));
    // Always the same pick: the server takes a resend of an id as the same answer.
    for (const { message } of beacons) expect(message).toEqual(sent[0]);
    reopen(); // the new socket carries the pick now
    vi.advanceTimersByTime(MIN_ACK_TIMEOUT_MS - 1);
    expect(beacons).toHaveLength(4);
    sender.onMessage(accepted('pick-1'));
    vi.advanceTimersByTime(5 * BEACON_INTERVAL_MS);
    expect(beacons).toHaveLength(4);
  });

  it('sends a pick made offline over HTTP at once, and stops once it is counted or too late', () => {
    const counted = harness();
    counted.sender.socketClosed();
    counted.sender.questionShown('q1');
    vi.advanceTimersByTime(5 * BEACON_INTERVAL_MS);
    expect(counted.beacons).toHaveLength(0); // no pick, nothing to send
    counted.sender.pick('q1', 1);
    expect(counted.beacons).toHaveLength(1);
    vi.advanceTimersByTime(BEACON_INTERVAL_MS);
    expect(counted.beacons).toHaveLength(2);
    // The reopened socket's state says the server has it (the HTTP request got there first).
    counted.sender.onMessage({ type: 'session_state', view: 'player', question: { id: 'q1' }, answered: true } as unknown as ServerMessage);
    expect(counted.sender.current).toBe('counted');
    vi.advanceTimersByTime(5 * BEACON_INTERVAL_MS);
    expect(counted.beacons).toHaveLength(2);

    const late = harness();
    late.sender.socketClosed();
    late.sender.questionShown('q1');
    late.sender.pick('q1', 1);
    late.sender.questionClosed('q1');
    expect(late.sender.current).toBe('late');
    vi.advanceTimersByTime(5 * BEACON_INTERVAL_MS);
    expect(late.beacons).toHaveLength(1);
  });

  it('spaces its HTTP requests out after the first few, and sends none once the server has answered one', () => {
    const slow = harness();
    slow.sender.socketClosed();
    slow.sender.questionShown('q1');
    slow.sender.pick('q1', 1);
    vi.advanceTimersByTime(60_000);
    const gaps = slow.beacons.slice(1).map((b, i) => b.atMs - slow.beacons[i].atMs);
    const expected = Array.from({ length: gaps.length }, (_, i) => Math.round(BEACON_INTERVAL_MS * BEACON_GROWTH ** Math.max(0, i + 1 - BEACONS_AT_FULL_PACE)));
    // (within a millisecond: the timers take whole ones)
    expect(gaps.map((gap, i) => Math.abs(gap - expected[i]) <= 1)).toEqual(gaps.map(() => true));
    expect(gaps.slice(0, BEACONS_AT_FULL_PACE)).toEqual(Array(BEACONS_AT_FULL_PACE).fill(BEACON_INTERVAL_MS));
    expect(slow.beacons.length).toBeLessThanOrEqual(15); // a minute of a dead network: 14 requests, not 80

    const answered = harness();
    answered.sender.socketClosed();
    answered.sender.questionShown('q1');
    answered.sender.pick('q1', 1);
    answered.sender.beaconAnswered('pick-1', 503); // a server error: keep trying
    vi.advanceTimersByTime(BEACON_INTERVAL_MS);
    expect(answered.beacons).toHaveLength(2);
    answered.sender.beaconAnswered('another-pick', 202); // not this pick's
    vi.advanceTimersByTime(BEACON_INTERVAL_MS);
    expect(answered.beacons).toHaveLength(3);
    answered.sender.beaconAnswered('pick-1', 202); // the server has it: the confirmation comes on a socket
    vi.advanceTimersByTime(10 * BEACON_INTERVAL_MS);
    expect(answered.beacons).toHaveLength(3);
    // Not even when the socket that opened meanwhile goes silent in its turn.
    answered.reopen();
    answered.signal.on = false;
    vi.advanceTimersByTime(5_000);
    expect(answered.reconnect).toHaveBeenCalled();
    expect(answered.beacons).toHaveLength(3);
    expect(answered.sender.current).not.toBe('counted');
  });

  it('counts a pick the server already has when a new socket reports it answered', () => {
    const { sender } = harness();
    sender.questionShown('q1');
    sender.pick('q1', 3);
    sender.socketClosed();
    sender.onMessage({ type: 'session_state', view: 'player', question: { id: 'q1' }, answered: true } as unknown as ServerMessage);
    expect(sender.current).toBe('counted');
  });
});

/**
 * A sender with a datagram path beside its socket (`path: null` for none): picks sent on the path
 * are recorded while it is open. The socket, HTTP and reconnects are recorded as in `harness`.
 */
function pathHarness(options: { path: boolean }) {
  const record: string[] = [];
  const onPath: { atMs: number; message: SubmitAnswerMessage }[] = [];
  const path = { open: true };
  let socketOpen = true;
  let ids = 0;
  const sender = new AnswerSender({
    send: (message) => {
      if (!socketOpen) return false;
      record.push(`socket ${Date.now()} ${JSON.stringify(message)}`);
      return true;
    },
    reconnect: () => {
      socketOpen = false;
      record.push(`reconnect ${Date.now()}`);
    },
    beacon: (message) => record.push(`beacon ${Date.now()} ${JSON.stringify(message)}`),
    now: () => Date.now(),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    newId: () => `pick-${++ids}`,
    onStatus: (status) => record.push(`status ${Date.now()} ${status}`),
    ...(options.path
      ? {
          datagram: (message: SubmitAnswerMessage) => {
            if (!path.open) return false;
            onPath.push({ atMs: Date.now(), message: { ...message } });
            return true;
          },
        }
      : {}),
  });
  sender.socketOpened();
  const startedAtMs = Date.now();
  const reopen = () => {
    socketOpen = true;
    sender.socketOpened();
  };
  return { sender, record, onPath, path, startedAtMs, reopen };
}

describe('the pick on the datagram path (docs/REALTIME.md)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('sends the pick on an open path at the tap and again every 250 ms, the same message as on the socket', () => {
    const { sender, onPath, record, startedAtMs } = pathHarness({ path: true });
    sender.questionShown('q1');
    sender.pick('q1', 2);
    expect(onPath).toHaveLength(1);
    expect(record[0]).toBe(`socket ${startedAtMs} ${JSON.stringify(onPath[0].message)}`);
    vi.advanceTimersByTime(DATAGRAM_REPEAT_MS - 1);
    expect(onPath).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(onPath).toHaveLength(2);
    vi.advanceTimersByTime(3 * DATAGRAM_REPEAT_MS);
    expect(onPath.map((d) => d.atMs - startedAtMs)).toEqual([0, 1, 2, 3, 4].map((n) => n * DATAGRAM_REPEAT_MS));
    for (const { message } of onPath) expect(message).toEqual({ type: 'submit_answer', questionId: 'q1', selectedIndex: 2, answerId: 'pick-1', reactionMs: 0 });
  });

  it('stops once the pick is confirmed, on whichever path the confirmation came', () => {
    const { sender, onPath } = pathHarness({ path: true });
    sender.questionShown('q1');
    sender.pick('q1', 2);
    vi.advanceTimersByTime(2 * DATAGRAM_REPEAT_MS);
    sender.onMessage(accepted('pick-1'));
    expect(sender.current).toBe('counted');
    vi.advanceTimersByTime(10 * DATAGRAM_REPEAT_MS);
    expect(onPath).toHaveLength(3);
  });

  it('stops when the question ends first, or is closed, or when disposed', () => {
    const ended = pathHarness({ path: true });
    ended.sender.questionShown('q1');
    ended.sender.pick('q1', 1);
    vi.advanceTimersByTime(DATAGRAM_REPEAT_MS);
    ended.sender.onMessage({ type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 0, 0, 0] });
    expect(ended.sender.current).toBe('late');
    vi.advanceTimersByTime(10 * DATAGRAM_REPEAT_MS);
    expect(ended.onPath).toHaveLength(2);

    const closed = pathHarness({ path: true });
    closed.sender.questionShown('q1');
    closed.sender.pick('q1', 1);
    closed.sender.questionClosed('q1');
    vi.advanceTimersByTime(10 * DATAGRAM_REPEAT_MS);
    expect(closed.onPath).toHaveLength(1);

    const disposed = pathHarness({ path: true });
    disposed.sender.questionShown('q1');
    disposed.sender.pick('q1', 1);
    disposed.sender.dispose();
    vi.advanceTimersByTime(10 * DATAGRAM_REPEAT_MS);
    expect(disposed.onPath).toHaveLength(1);
  });

  it('keeps trying while the path is not open: one that opens mid-pick carries it at the next repeat', () => {
    const { sender, onPath, path, startedAtMs } = pathHarness({ path: true });
    path.open = false;
    sender.questionShown('q1');
    sender.pick('q1', 0);
    vi.advanceTimersByTime(3 * DATAGRAM_REPEAT_MS);
    expect(onPath).toHaveLength(0);
    path.open = true;
    vi.advanceTimersByTime(DATAGRAM_REPEAT_MS);
    expect(onPath.map((d) => d.atMs - startedAtMs)).toEqual([4 * DATAGRAM_REPEAT_MS]);
  });

  it('sends a waiting pick at once when the path opens or brings a pong, beside its repeats, unless it just went', () => {
    const { sender, onPath, path, startedAtMs } = pathHarness({ path: true });
    path.open = false;
    sender.questionShown('q1');
    sender.pick('q1', 0);
    vi.advanceTimersByTime(100);
    path.open = true;
    sender.pathHeard();
    sender.pathHeard(); // just sent: not again
    vi.advanceTimersByTime(2 * DATAGRAM_REPEAT_MS - 100);
    expect(onPath.map((d) => d.atMs - startedAtMs)).toEqual([100, DATAGRAM_REPEAT_MS, 2 * DATAGRAM_REPEAT_MS]);
  });

  it('changes nothing on the socket and over HTTP: the same sends, reconnects and statuses as without a path', () => {
    // A socket silent from the tap: given up at 1.5 s, HTTP requests, a redial, then a new socket.
    const scenario = (h: ReturnType<typeof pathHarness>) => {
      h.sender.questionShown('q1');
      vi.advanceTimersByTime(500);
      h.sender.pick('q1', 3);
      vi.advanceTimersByTime(6_000);
      h.reopen();
      vi.advanceTimersByTime(1_000);
      h.sender.onMessage(accepted('pick-1'));
      vi.advanceTimersByTime(5_000);
      return h.record.map((line) => line.replace(/^(\w+) (\d+)/, (_, what: string, at: string) => `${what} +${Number(at) - h.startedAtMs}`));
    };
    const withPath = pathHarness({ path: true });
    const withPathRecord = scenario(withPath);
    vi.setSystemTime(1_000_000);
    const withoutPath = scenario(pathHarness({ path: false }));
    expect(withPath.onPath.length).toBeGreaterThan(20);
    expect(withoutPath).toContain('reconnect +1500');
    expect(withoutPath.filter((line) => line.startsWith('socket'))).toHaveLength(2);
    expect(withoutPath.some((line) => line.startsWith('beacon'))).toBe(true);
    expect(withPathRecord).toEqual(withoutPath);
  });
});

describe('newAnswerId', () => {
  it('gives short ids (they ride in every packed pick) that do not repeat', () => {
    const ids = Array.from({ length: 10_000 }, () => newAnswerId());
    for (const id of ids) expect(id).toMatch(new RegExp(`^[0-9a-v]{${ANSWER_ID_CHARS}}$`));
    expect(new Set(ids).size).toBe(ids.length);
    // Every character of the alphabet turns up: the bits are not stuck.
    expect(new Set(ids.join('')).size).toBe(32);
  });
});

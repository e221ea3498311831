import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { PLAYER_ANSWER_PATH } from '../../protocol/api';
import type { PlayerAnswerBody, ServerMessage } from '../../protocol/index';
import { serverTimeOf } from '../common/realtime/liveState';
import { useServerClock, type ServerClockHandle } from '../common/realtime/serverClock';
import { useSessionSocket, type SocketStatus } from '../common/realtime/useSessionSocket';
import { errorToast } from '../common/toast';
import { AnswerSender, type AnswerStatus, BEACON_TIMEOUT_MS, RTT_PING_INTERVAL_MS, newAnswerId } from './answer-sender';
import { DatagramPath, socketDeadBesidePath } from './datagram-path';
import { INITIAL_PLAYER_STATE, reducePlayer, type PlayerGameState } from './playerGameState';
import type { StoredPlayer } from './playerStorage';

export interface PlayerGame {
  state: PlayerGameState;
  status: SocketStatus;
  clock: ServerClockHandle;
  /** Where the current pick is (answer-sender.ts): sending, saved offline, counted, too late. */
  answerStatus: AnswerStatus;
  pick: (index: number) => void;
}


/** protocol's MAX_REPORTED_RTT_MS (not imported: protocol/messages pulls zod into the phone bundle); a ping over it is refused. */
const MAX_REPORTED_RTT_MS = 60_000;

/**
 * The phone's live game: the player socket, the server clock and the game state. A pick goes
 * out through the AnswerSender, which resends it (same id) until the server confirms it and
 * treats a socket that stays silent as dead. A slow phone may also get the datagram path
 * (datagram-path.ts): what it brings is handled as the socket's messages are.
 */
export function usePlayerGame(
  sessionId: string,
  player: StoredPlayer | null,
  onRefused: (code: number, reason: string) => void,
): PlayerGame {
  const clock = useServerClock();
  const [state, dispatch] = useReducer(reducePlayer, INITIAL_PLAYER_STATE);
  const [answerStatus, setAnswerStatus] = useState<AnswerStatus>('idle');
  const socketRef = useRef<{ send: (m: unknown) => boolean; reconnect: () => void }>({ send: () => false, reconnect: () => undefined });
  const pings = useRef(new Map<number, number>());
  const credentials = useRef({ sessionId, player });
  credentials.current = { sessionId, player };
  // The newest session_state's serverTime, from either path: a late repeat on the path is refused by it.
  const newestStateServerTime = useRef<number | null>(null);
  const takeRef = useRef<(message: ServerMessage) => void>(() => undefined);
  const pingNow = useRef<() => void>(() => undefined);
  // The sender and the datagram path each call the other: made together, once.
  const [{ sender, datagramPath }] = useState(() => {
    const path = new DatagramPath({
      signal: (message) => socketRef.current.send(message),
      onMessage: (message) => takeRef.current(message),
      newestStateServerTime: () => newestStateServerTime.current,
      onLinkUp: () => {
        created.pathHeard();
        // The path works: a socket that left a ping unanswered for long is dead, not slow.
        if (socketDeadBesidePath(pings.current.values().next().value, performance.now())) {
          pings.current.clear();
          socketRef.current.reconnect();
        }
      },
    });
    const created: AnswerSender = new AnswerSender({
      send: (message) => socketRef.current.send(message),
      reconnect: () => socketRef.current.reconnect(),
      beacon: (message) => {
        const { sessionId: id, player: me } = credentials.current;
        if (!me) return;
        // The confirmation comes on the socket the phone is reopening; the server's answer here
        // only stops further requests. An AbortController and a timer rather than
        // AbortSignal.timeout, which older phones lack.
        const abort = new AbortController();
        setTimeout(() => abort.abort(), BEACON_TIMEOUT_MS);
        const body: PlayerAnswerBody = { sessionId: id, playerId: me.id, playerToken: me.playerToken, answer: message };
        fetch(PLAYER_ANSWER_PATH, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          cache: 'no-store',
          signal: abort.signal,
        }).then(
          (response) => created.beaconAnswered(message.answerId, response.status),
          () => undefined,
        );
      },
      now: () => performance.now(),
      setTimer: (callback, ms) => setTimeout(callback, ms),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      newId: newAnswerId,
      onStatus: setAnswerStatus,
      datagram: (message) => path.send(message),
    });
    return { sender: created, datagramPath: path };
  });

  // A message from either path. The datagram path's do not count as the socket heard from.
  const take = useCallback(
    (message: ServerMessage) => {
      const serverTime = serverTimeOf(message);
      if (serverTime !== null) clock.observe(serverTime);
      if (message.type === 'session_state') {
        const newest = newestStateServerTime.current;
        newestStateServerTime.current = newest === null ? message.serverTime : Math.max(newest, message.serverTime);
      }
      if (message.type === 'pong') {
        const sentAt = pings.current.get(message.id);
        pings.current.delete(message.id);
        const firstRtt = sender.rttMs === null;
        if (sentAt !== undefined) sender.observeRtt(performance.now() - sentAt);
        clock.observe(message.serverTime);
        // The first round trip is reported at once, not 3 s later: a slow phone's datagram path
        // then opens within a few round trips of joining.
        if (firstRtt && sender.rttMs !== null) pingNow.current();
        return;
      }
      // The reaction time counts from the moment the question is on screen.
      if (message.type === 'session_state' && message.phase === 'question' && message.question) sender.questionShown(message.question.id);
      sender.onMessage(message);
      // A refused answer other than a repeat is worth telling; a repeat is just a lock already held.
      if (message.type === 'error' && message.code !== 'answer/duplicate' && message.code !== 'answer/late') errorToast(message.message);
      dispatch({ type: 'server', message });
    },
    [clock, sender],
  );
  takeRef.current = take;

  const onMessage = useCallback(
    (message: ServerMessage) => {
      sender.heard(); // the socket is alive (a silent one is presumed dead while a pick waits)
      if (message.type === 'datagram_offer') {
        void datagramPath.offer(message.sdp);
        return;
      }
      if (message.type === 'datagram_candidates') {
        void datagramPath.candidates(message);
        return;
      }
      take(message);
    },
    [sender, take, datagramPath],
  );

  const { status, send, reconnect } = useSessionSocket<ServerMessage>({
    sessionId,
    type: 'player',
    params: player ? { playerId: player.id, playerToken: player.playerToken } : undefined,
    enabled: player !== null,
    onMessage,
    onOpen: () => sender.socketOpened(),
    onDisconnect: () => {
      sender.socketClosed();
      dispatch({ type: 'disconnected' });
    },
    onPermanentClose: onRefused,
    // A socket given up as silent may still bring the pick's confirmation (DESIGN §14).
    fromRetired: (message) => message.type === 'answer_accepted',
    // An unconfirmed pick rides in the new socket's upgrade request: a round trip sooner.
    connectParams: () => sender.upgradeParams(),
  });
  socketRef.current = { send, reconnect };

  // Round trips, measured while connected: they size the wait for a confirmation.
  useEffect(() => {
    if (status !== 'open') return;
    // A replaced socket's pings will never be answered: only this socket's count (socketDeadBesidePath).
    pings.current.clear();
    let id = 0;
    const ping = () => {
      if (!sender.wantsPing) return;
      id += 1;
      pings.current.set(id, performance.now());
      if (pings.current.size > 8) pings.current.delete(pings.current.keys().next().value as number);
      const rttMs = sender.rttMs;
      // The worst recent round trip: a slow phone is offered the datagram path.
      send(rttMs === null ? { type: 'ping', id } : { type: 'ping', id, rttMs: Math.min(MAX_REPORTED_RTT_MS, Math.round(rttMs)) });
    };
    ping();
    pingNow.current = ping;
    const timer = setInterval(ping, RTT_PING_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      pingNow.current = () => undefined;
    };
  }, [status, send, sender]);

  useEffect(() => () => sender.dispose(), [sender]);
  useEffect(() => () => datagramPath.close(), [datagramPath]);

  const { live } = state;
  const pick = useCallback(
    (index: number) => {
      const question = live.phase === 'question' ? live.question : null;
      if (!question || state.answered) return;
      dispatch({ type: 'pick', index });
      sender.pick(question.id, index);
    },
    [live.phase, live.question, state.answered, sender],
  );
  return { state, status, clock, answerStatus, pick };
}

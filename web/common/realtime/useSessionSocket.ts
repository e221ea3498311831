import { useCallback, useEffect, useRef, useState } from 'react';
import { CONNECT_TIMEOUT_MS, PERMANENT_CLOSE_CODES, RETIRED_SOCKET_MS, attemptUrl, reconnectDelayMs, sessionSocketUrl, takeFromRetired } from './timings';

export type SocketRole = 'admin' | 'display' | 'player';

/**
 * - connecting: first attempt under way
 * - open: connected
 * - reconnecting: lost, a retry is scheduled or under way
 * - offline: the device says it has no network; waiting for it to come back
 * - closed: refused for good (permanent close code); no more attempts
 */
export type SocketStatus = 'connecting' | 'open' | 'reconnecting' | 'offline' | 'closed';

export interface SessionSocketOptions<TMessage> {
  sessionId: string;
  type: SocketRole;
  /** Extra query parameters: playerId + playerToken for players, token for admins. */
  params?: Record<string, string>;
  /** false: stay disconnected (e.g. until credentials are known). */
  enabled?: boolean;
  onMessage: (message: TMessage) => void;
  /** Every successful (re)connection; the server sends a full session_state right after. */
  onOpen?: () => void;
  /** An open connection was lost (the hook is already retrying). */
  onDisconnect?: () => void;
  /** Refused for good: 4400 bad query, 4401 bad credentials, 4404 unknown session/player, 4410 deleted. */
  onPermanentClose?: (code: number, reason: string) => void;
  /**
   * Messages still taken from a socket replaced by `reconnect` (left open RETIRED_SOCKET_MS for
   * what it carries) once the replacement is open: the phone's answer confirmations. Until then the
   * newest such socket's messages are all taken (takeFromRetired). Unset: a replaced socket is closed.
   */
  fromRetired?: (message: TMessage) => boolean;
  /**
   * Extra query parameters for the next connection attempt only, read as it starts: the phone's
   * unconfirmed pick rides in the upgrade request (DESIGN §14, docs/REALTIME.md).
   */
  connectParams?: () => Record<string, string> | undefined;
}

export interface SessionSocket {
  status: SocketStatus;
  /** The close code and reason of a permanent close. */
  closed: { code: number; reason: string } | null;
  /** Sends one JSON message if the socket is open; false when it could not go out. */
  send: (message: unknown) => boolean;
  /** The open socket is presumed dead (it stays silent): drop it and connect again now. */
  reconnect: () => void;
}

/**
 * The live connection of a display, phone or admin screen (SPEC §7 "Real-time connection",
 * §9 timings). It retries with growing, jittered delays, gives up on a connect that hangs for
 * 20 s, and stops only on a permanent close code or unmount. Browsers keep a socket "open" after
 * the network vanishes (and DevTools' offline mode does not touch sockets at all), so the
 * device's offline/online events drop and restore the connection explicitly; a phone coming back
 * to the foreground or online reconnects at once instead of waiting out the backoff.
 */
export function useSessionSocket<TMessage>(options: SessionSocketOptions<TMessage>): SessionSocket {
  const { sessionId, type, params, enabled = true } = options;
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [closed, setClosed] = useState<{ code: number; reason: string } | null>(null);
  const socketRef = useRef<WebSocket | null>(null);
  const reconnectRef = useRef<() => void>(() => undefined);
  const handlers = useRef(options);
  handlers.current = options;
  const paramsKey = JSON.stringify(params ?? {});

  useEffect(() => {
    if (!enabled) return;
    const url = sessionSocketUrl({ sessionId, type, ...(JSON.parse(paramsKey) as Record<string, string>) });
    let attempt = 0;
    let stopped = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let connectTimer: ReturnType<typeof setTimeout> | undefined;
    let newestRetired: WebSocket | null = null;

    const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

    const scheduleRetry = () => {
      clearTimeout(retryTimer);
      if (isOffline()) {
        setStatus('offline');
        return;
      }
      setStatus('reconnecting');
      retryTimer = setTimeout(connect, reconnectDelayMs(attempt++));
    };

    /** Forgets the current socket (its late events are ignored) and closes it. */
    const drop = (socket: WebSocket, wasOpen: boolean) => {
      clearTimeout(connectTimer);
      if (socketRef.current === socket) socketRef.current = null;
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close();
      if (wasOpen) handlers.current.onDisconnect?.();
    };

    function connect() {
      clearTimeout(retryTimer);
      if (stopped) return;
      if (isOffline()) {
        setStatus('offline');
        return;
      }
      const socket = new WebSocket(attemptUrl(url, handlers.current.connectParams?.()));
      let opened = false;
      socketRef.current = socket;
      connectTimer = setTimeout(() => {
        drop(socket, false);
        scheduleRetry();
      }, CONNECT_TIMEOUT_MS);
      socket.onopen = () => {
        clearTimeout(connectTimer);
        opened = true;
        attempt = 0;
        setStatus('open');
        setClosed(null);
        handlers.current.onOpen?.();
      };
      socket.onmessage = (event) => {
        let message: TMessage;
        try {
          message = JSON.parse(String(event.data)) as TMessage;
        } catch {
          console.warn('Ignoring a socket frame that is not JSON');
          return;
        }
        handlers.current.onMessage(message);
      };
      socket.onclose = (event) => {
        drop(socket, opened);
        if (PERMANENT_CLOSE_CODES.has(event.code)) {
          stopped = true;
          setStatus('closed');
          setClosed({ code: event.code, reason: event.reason });
          handlers.current.onPermanentClose?.(event.code, event.reason);
          return;
        }
        scheduleRetry();
      };
    }

    const reconnectNow = () => {
      if (stopped || socketRef.current) return;
      attempt = 0;
      connect();
    };
    /** A silent socket left open for a while: its pick may still get through, its confirmation still counts. */
    const retire = (socket: WebSocket) => {
      const accepts = handlers.current.fromRetired;
      const wasOpen = socket.readyState === WebSocket.OPEN;
      if (!accepts || !wasOpen) return drop(socket, wasOpen);
      clearTimeout(connectTimer);
      if (socketRef.current === socket) socketRef.current = null;
      socket.onopen = socket.onclose = socket.onerror = null;
      newestRetired = socket;
      socket.onmessage = (event) => {
        let message: TMessage;
        try {
          message = JSON.parse(String(event.data)) as TMessage;
        } catch {
          return; // not JSON: nothing for us
        }
        const replacementOpen = socketRef.current?.readyState === WebSocket.OPEN;
        if (takeFromRetired({ newestRetired: newestRetired === socket, replacementOpen, accepted: accepts(message) })) handlers.current.onMessage(message);
      };
      setTimeout(() => {
        socket.onmessage = null;
        if (newestRetired === socket) newestRetired = null;
        socket.close();
      }, RETIRED_SOCKET_MS);
      handlers.current.onDisconnect?.();
    };
    // A socket the caller found silent: browsers keep a dead one "open" for minutes.
    reconnectRef.current = () => {
      if (stopped) return;
      const socket = socketRef.current;
      if (socket) retire(socket);
      attempt = 0;
      setStatus('reconnecting');
      connect();
    };
    const goOffline = () => {
      const socket = socketRef.current;
      if (socket) drop(socket, socket.readyState === WebSocket.OPEN);
      clearTimeout(retryTimer);
      if (!stopped) setStatus('offline');
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') reconnectNow();
    };

    window.addEventListener('online', reconnectNow);
    window.addEventListener('offline', goOffline);
    document.addEventListener('visibilitychange', onVisible);
    setStatus('connecting');
    setClosed(null);
    connect();
    return () => {
      stopped = true;
      window.removeEventListener('online', reconnectNow);
      window.removeEventListener('offline', goOffline);
      document.removeEventListener('visibilitychange', onVisible);
      clearTimeout(retryTimer);
      const socket = socketRef.current;
      if (socket) drop(socket, false);
    };
  }, [enabled, sessionId, type, paramsKey]);

  const send = useCallback((message: unknown): boolean => {
    const socket = socketRef.current;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }, []);

  const reconnect = useCallback(() => reconnectRef.current(), []);
  return { status, closed, send, reconnect };
}

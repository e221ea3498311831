import { useCallback, useEffect, useRef, useState } from 'react';
import { CONNECT_TIMEOUT_MS, PERMANENT_CLOSE_CODES, reconnectDelayMs } from './reconnect';

export type SocketStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ReconnectingSocketOptions<TMessage> {
  /** null: do not connect. */
  url: string | null;
  onMessage: (message: TMessage) => void;
  /** A permanent close (4400/4401/4404/4410): no more attempts. */
  onPermanentClose?: (code: number, reason: string) => void;
}

/**
 * A WebSocket that comes back by itself: retries with growing, jittered delays, gives up on a
 * connect that hangs, and stops only on permanent close codes or unmount. JSON in and out.
 */
export function useReconnectingSocket<TMessage>({ url, onMessage, onPermanentClose }: ReconnectingSocketOptions<TMessage>) {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [closeReason, setCloseReason] = useState<string | null>(null);
  const socketRef = useRef<WebSocket | null>(null);
  const handlers = useRef({ onMessage, onPermanentClose });
  handlers.current = { onMessage, onPermanentClose };

  useEffect(() => {
    if (!url) return;
    let attempt = 0;
    let stopped = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let connectTimer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      const socket = new WebSocket(url);
      socketRef.current = socket;
      connectTimer = setTimeout(() => socket.close(), CONNECT_TIMEOUT_MS);
      socket.onopen = () => {
        clearTimeout(connectTimer);
        attempt = 0;
        setStatus('open');
        setCloseReason(null);
      };
      socket.onmessage = (event) => {
        try {
          handlers.current.onMessage(JSON.parse(String(event.data)) as TMessage);
        } catch (error) {
          console.error('Ignoring a malformed socket message', error);
        }
      };
      socket.onclose = (event) => {
        clearTimeout(connectTimer);
        if (socketRef.current === socket) socketRef.current = null;
        if (stopped) return;
        if (PERMANENT_CLOSE_CODES.has(event.code)) {
          setStatus('closed');
          setCloseReason(event.reason || `Connection refused (${event.code})`);
          handlers.current.onPermanentClose?.(event.code, event.reason);
          return;
        }
        setStatus('reconnecting');
        retryTimer = setTimeout(connect, reconnectDelayMs(attempt++));
      };
    };

    setStatus('connecting');
    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(connectTimer);
      socketRef.current?.close(1000, 'leaving');
      socketRef.current = null;
    };
  }, [url]);

  /** Sends when open; returns false when the message could not go out. */
  const send = useCallback((message: unknown): boolean => {
    const socket = socketRef.current;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }, []);

  return { status, closeReason, send };
}

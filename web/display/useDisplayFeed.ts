import { useCallback, useReducer } from 'react';
import type { ServerMessage } from '../../protocol/index';
import { INITIAL_LIVE_STATE, reduceLive, serverTimeOf, type LiveState } from '../common/realtime/liveState';
import { useServerClock, type ServerClockHandle } from '../common/realtime/serverClock';
import { useSessionSocket, type SocketStatus } from '../common/realtime/useSessionSocket';

/** The display's read-only live feed: socket, server clock and the folded state in one. */
export function useDisplayFeed(sessionId: string, enabled: boolean): {
  live: LiveState;
  status: SocketStatus;
  clock: ServerClockHandle;
  closed: { code: number; reason: string } | null;
} {
  const clock = useServerClock();
  const [live, dispatch] = useReducer(reduceLive, INITIAL_LIVE_STATE);
  const onMessage = useCallback(
    (message: ServerMessage) => {
      const serverTime = serverTimeOf(message);
      if (serverTime !== null) clock.observe(serverTime);
      dispatch(message);
    },
    [clock],
  );
  const { status, closed } = useSessionSocket<ServerMessage>({ sessionId, type: 'display', enabled, onMessage });
  return { live, status, clock, closed };
}

import { useCallback, useEffect, useReducer } from 'react';
import type { ServerMessage } from '../../protocol/index';
import { serverTimeOf } from '../common/realtime/liveState';
import { useServerClock, type ServerClockHandle } from '../common/realtime/serverClock';
import { useSessionSocket, type SocketStatus } from '../common/realtime/useSessionSocket';
import { errorToast } from '../common/toast';
import { INITIAL_PLAYER_STATE, reducePlayer, type PlayerGameState } from './playerGameState';
import type { StoredPlayer } from './playerStorage';

export interface PlayerGame {
  state: PlayerGameState;
  status: SocketStatus;
  clock: ServerClockHandle;
  pick: (index: number) => void;
}

/**
 * The phone's live game: the player socket, the server clock and the game state, plus the one
 * side effect that matters: a pick goes out once per connection, only after the server's state
 * on that connection has confirmed the question is still open and not yet answered.
 */
export function usePlayerGame(
  sessionId: string,
  player: StoredPlayer | null,
  onRefused: (code: number, reason: string) => void,
): PlayerGame {
  const clock = useServerClock();
  const [state, dispatch] = useReducer(reducePlayer, INITIAL_PLAYER_STATE);

  const onMessage = useCallback(
    (message: ServerMessage) => {
      const serverTime = serverTimeOf(message);
      if (serverTime !== null) clock.observe(serverTime);
      // A refused answer other than a repeat is worth telling; a repeat is just a lock already held.
      if (message.type === 'error' && message.code !== 'answer/duplicate') errorToast(message.message);
      dispatch({ type: 'server', message });
    },
    [clock],
  );

  const { status, send } = useSessionSocket<ServerMessage>({
    sessionId,
    type: 'player',
    params: player ? { playerId: player.id, playerToken: player.playerToken } : undefined,
    enabled: player !== null,
    onMessage,
    onDisconnect: () => dispatch({ type: 'disconnected' }),
    onPermanentClose: onRefused,
  });

  const { pending, synced } = state;
  useEffect(() => {
    if (status !== 'open' || !synced || !pending || pending.sent) return;
    if (send({ type: 'submit_answer', questionId: pending.questionId, selectedIndex: pending.selectedIndex })) {
      dispatch({ type: 'sent' });
    }
  }, [status, synced, pending, send]);

  const pick = useCallback((index: number) => dispatch({ type: 'pick', index }), []);
  return { state, status, clock, pick };
}

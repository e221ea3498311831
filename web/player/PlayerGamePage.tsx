import { useCallback, useState } from 'react';
import { Redirect, useLocation, useParams } from 'wouter';
import { Star, Timer, WifiOff } from 'lucide-react';
import { PLAYER_DEFAULT_MEDIA_COUNT, rotationItems } from '../common/realtime/mediaRotation';
import { TIMER_WARNING_SECONDS, formatCountdown, useCountdown } from '../common/realtime/useCountdown';
import { usePublicSession } from '../common/realtime/usePublicSession';
import type { SocketStatus } from '../common/realtime/useSessionSocket';
import { useDocumentTitle } from '../common/ui/useDocumentTitle';
import { BetweenQuestions } from './BetweenQuestions';
import { PhoneAnnouncer } from './PhoneAnnouncer';
import { PlayerFinished, PlayerWelcome } from './PlayerMoments';
import { deliveryOf } from './phoneMoments';
import { PhoneScreen } from './PhoneScreen';
import { PlayerQuestion } from './PlayerQuestion';
import { forgetPlayer, loadPlayer } from './playerStorage';
import { usePlayerGame } from './usePlayerGame';

/** protocol CLOSE_CODES.removed, listed here so the phone bundle does not pull zod in. */
const REMOVED_CLOSE_CODE = 4403;

/**
 * The phone during the game (SPEC §2 "Player game screen", §4 "Player game"). Without a stored
 * player for this session it goes back to the join form.
 */
export default function PlayerGamePage() {
  const { sessionId } = useParams<{ sessionId: string }>();
  const [player] = useState(() => loadPlayer(sessionId));
  const [, navigate] = useLocation();
  const joinPath = `/player/${encodeURIComponent(sessionId)}`;
  // Removed by the host (4403): the phone says why and stays out; the stored token keeps it out
  // of this game's join form too (it answers 403).
  const [removed, setRemoved] = useState<string | null>(null);
  // The server refused this phone for good otherwise (player deleted, token expired, session gone): join again.
  const onRefused = useCallback(
    (code: number, reason: string) => {
      if (code === REMOVED_CLOSE_CODE) {
        setRemoved(reason || 'Removed by the host');
        return;
      }
      forgetPlayer();
      navigate(joinPath, { replace: true });
    },
    [navigate, joinPath],
  );
  const info = usePublicSession(sessionId);
  const { state, status, clock, answerStatus, pick } = usePlayerGame(sessionId, player, onRefused);
  const { live } = state;
  const inQuestion = live.phase === 'question' && live.question !== null;
  const countdown = useCountdown(inQuestion ? live.endsAt : null, inQuestion ? live.timeRemaining : null, clock.serverNow);
  const session = live.sessionInfo ?? (info.state === 'ready' ? info.session : null);
  const delivery = deliveryOf(state, status, answerStatus);
  const mediaItems = rotationItems(live.media, live.mediaItemCount ?? session?.mediaItemsPerTransition ?? PLAYER_DEFAULT_MEDIA_COUNT);
  useDocumentTitle(session?.title ?? 'Live Trivia');

  if (!player) return <Redirect to={joinPath} replace />;

  const header = (
    <header className="sticky top-0 z-10 border-b border-white/10 bg-black/50 backdrop-blur">
      <div className="mx-auto flex h-16 w-full max-w-md items-center justify-between gap-3 px-4">
        <p className="mq-heading min-w-0 truncate text-lg font-bold" data-testid="game-label">
          {session?.title ?? 'Live Trivia'}
        </p>
        <div className="flex shrink-0 items-center gap-3">
          {inQuestion && countdown !== null && <PhoneCountdown seconds={countdown} />}
          <p className="mq-mono flex items-center gap-1.5 rounded-full bg-white/10 px-3 py-1 text-lg font-bold" data-testid="player-score" aria-label={`Score ${state.score}`}>
            <Star className="size-4" style={{ color: 'var(--mq-primary)' }} aria-hidden />
            {state.score}
          </p>
        </div>
      </div>
      <ConnectionNote status={status} />
    </header>
  );

  return (
    <PhoneScreen theme={session?.theme ?? null} header={header}>
      {removed !== null ? (
        <section role="alert" className="flex flex-col items-center gap-4 py-16 text-center" data-testid="player-removed">
          <h1 className="mq-heading text-3xl font-black">{removed}</h1>
          <p className="text-lg opacity-80">The host has removed you from this game, so you can no longer answer or appear on the screen.</p>
        </section>
      ) : !live.ready ? (
        <p role="status" className="py-20 text-center text-xl opacity-80">
          Connecting...
        </p>
      ) : live.status === 'finished' ? (
        <PlayerFinished place={state.place} score={state.score} />
      ) : live.phase === 'waiting' ? (
        <>
          <PlayerWelcome name={player.name} compact={mediaItems.length > 0} />
          {mediaItems.length > 0 && <BetweenQuestions items={mediaItems} outcome={null} place={null} />}
        </>
      ) : live.question ? (
        // One per asking: the next question's buttons start fresh instead of fading out of the
        // last reveal's colours (the operator may press Next during the reveal).
        <PlayerQuestion key={live.asking} state={state} delivery={delivery} onPick={pick} />
      ) : (
        <BetweenQuestions
          items={mediaItems}
          outcome={state.outcome}
          place={state.place}
        />
      )}
      <PhoneAnnouncer state={state} countdown={inQuestion ? countdown : null} delivery={delivery} />
    </PhoneScreen>
  );
}

function PhoneCountdown({ seconds }: { seconds: number }) {
  const warning = seconds <= TIMER_WARNING_SECONDS;
  return (
    <p
      role="timer"
      aria-label="Time remaining"
      data-testid="player-countdown"
      data-warning={warning}
      className={`mq-mono flex items-center gap-1 rounded-full px-3 py-1 text-lg font-bold ${warning ? 'mq-pulse' : ''}`}
      style={{ color: warning ? 'var(--mq-warning)' : undefined, border: `2px solid ${warning ? 'var(--mq-warning)' : 'rgb(255 255 255 / 0.25)'}` }}
    >
      <Timer className="size-4" aria-hidden />
      {formatCountdown(seconds)}
    </p>
  );
}

function ConnectionNote({ status }: { status: SocketStatus }) {
  if (status === 'open' || status === 'connecting') return null;
  return (
    <p role="status" className="flex items-center justify-center gap-2 bg-amber-500/90 px-4 py-1 text-sm font-semibold text-black" data-testid="connection-note">
      <WifiOff className="size-4" aria-hidden />
      {status === 'offline' ? 'You are offline. Reconnecting when the network is back...' : status === 'closed' ? 'Disconnected' : 'Reconnecting...'}
    </p>
  );
}

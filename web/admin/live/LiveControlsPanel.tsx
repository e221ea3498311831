import { useCallback, useReducer, useState } from 'react';
import { Collapsible } from 'radix-ui';
import { ChevronDown, Monitor, Pause, Play, SkipForward, Smartphone, Timer, Wifi, WifiOff } from 'lucide-react';
import type { AdminClientMessage, AdminServerMessage } from './adminSocket';
import { answeredText, currentAndNext, displaysText, liveCounterText, phonesText, registrationBurstText } from './adminSocket';
import type { AdminSessionState, PresenceMessage, RegistrationBurstMessage, ServerMessage } from '../../../protocol/index';
import { LivePlayers } from './LivePlayers';
import { INITIAL_LIVE_STATE, reduceLive, serverTimeOf } from '../../common/realtime/liveState';
import { useServerClock } from '../../common/realtime/serverClock';
import { formatCountdown, useCountdown } from '../../common/realtime/useCountdown';
import { useSessionItems } from '../queries';
import { getAdminToken } from '../../common/auth';
import { errorToast } from '../../common/toast';
import { useSessionSocket } from '../../common/realtime/useSessionSocket';
import { Button } from '../../common/ui/Button';
import { Badge } from '../../common/ui/Card';
import type { Session } from '../types';
import { SwitchField } from '../ui/Toggles';

/**
 * Steering a live session over the admin socket (SPEC §2 "Live Controls"). The panel shows what
 * the server last sent in session_state; a command changes nothing locally until the server answers.
 */
export function LiveControlsPanel({ session }: { session: Session }) {
  const [open, setOpen] = useState(true);
  const [state, setState] = useState<AdminSessionState | null>(null);
  const [presence, setPresence] = useState<PresenceMessage | null>(null);
  const [burst, setBurst] = useState<RegistrationBurstMessage | null>(null);
  // The same fold as the screens': countdown and the answer count of the open question.
  const [live, fold] = useReducer(reduceLive, INITIAL_LIVE_STATE);
  const clock = useServerClock();
  const items = useSessionItems(session.id);
  const token = getAdminToken();
  const onMessage = useCallback(
    (message: ServerMessage) => {
      const serverTime = serverTimeOf(message);
      if (serverTime !== null) clock.observe(serverTime);
      fold(message);
      if (message.type === 'session_state' && message.view === 'admin') setState(message);
      else if (message.type === 'presence') setPresence(message);
      else if (message.type === 'registration_burst') setBurst(message);
      else if (message.type === 'error') errorToast(message.message);
    },
    [clock],
  );
  const { status, closed, send } = useSessionSocket<AdminServerMessage>({
    sessionId: session.id,
    type: 'admin',
    params: { token: token ?? '' },
    enabled: !!token,
    onMessage,
  });
  const online = status === 'open';
  const info = state?.session;
  const autoRotate = info?.autoRotate ?? session.autoRotate;
  const inQuestion = live.phase === 'question' && live.question !== null;
  const countdown = useCountdown(inQuestion ? live.endsAt : null, inQuestion ? live.timeRemaining : null, clock.serverNow);
  const progress = inQuestion ? live.progress : null;
  const { current, next } = currentAndNext(items.data ?? [], info?.currentItemIndex ?? null);
  const command = (message: AdminClientMessage) => {
    if (!send(message)) errorToast('Live controls are offline. Reconnecting...');
  };

  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="rounded-lg border border-red-500/30 bg-red-500/5">
      <Collapsible.Trigger asChild>
        <button
          type="button"
          className="group flex w-full items-center justify-between gap-2 px-3 py-2 text-sm font-semibold"
        >
          Live Controls
          <span className="flex items-center gap-2">
            {online ? (
              <Badge tone="success">
                <Wifi className="size-3" aria-hidden />
                Connected
              </Badge>
            ) : (
              <Badge tone="warning">
                <WifiOff className="size-3" aria-hidden />
                {status === 'connecting' ? 'Connecting...' : status === 'reconnecting' ? 'Reconnecting...' : 'Offline'}
              </Badge>
            )}
            <ChevronDown className="size-4 transition-transform group-data-[state=open]:rotate-180" aria-hidden />
          </span>
        </button>
      </Collapsible.Trigger>
      <Collapsible.Content className="grid gap-3 border-t border-red-500/20 p-3">
        {closed && (
          <p role="alert" className="text-xs text-amber-200">
            {closed.reason || `Live controls were refused (${closed.code}).`}
          </p>
        )}
        <p className="text-sm font-medium" data-testid="live-counter" aria-live="polite">
          {liveCounterText(info)}
        </p>
        <LiveInsight
          presence={presence}
          progress={progress}
          countdown={inQuestion ? countdown : null}
          current={current}
          next={next}
        />
        {burst && (
          <p role="status" className="text-sm font-medium text-amber-200" data-testid="live-registration-burst">
            {registrationBurstText(burst)}
          </p>
        )}
        <LivePlayers sessionId={session.id} leaderboard={live.leaderboard} />
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={!online} onClick={() => command({ type: 'admin_next_question' })}>
            <SkipForward aria-hidden />
            Next Question
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={!online}
            onClick={() =>
              command(autoRotate ? { type: 'admin_pause' } : { type: 'admin_toggle_autorotate', autoRotate: true })
            }
          >
            {autoRotate ? <Pause aria-hidden /> : <Play aria-hidden />}
            {autoRotate ? 'Pause' : 'Resume'}
          </Button>
        </div>
        <SwitchField
          id={`auto-play-${session.id}`}
          label="Auto-Play Mode"
          description="Move through the questions automatically in a continuous loop."
          checked={autoRotate}
          disabled={!online}
          onCheckedChange={(on) => command({ type: 'admin_toggle_autorotate', autoRotate: on })}
        />
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

/** What the room is doing now: phones, displays, answers in, time left, the item on and the next one. */
function LiveInsight({
  presence,
  progress,
  countdown,
  current,
  next,
}: {
  presence: PresenceMessage | null;
  progress: { answered: number; players: number } | null;
  countdown: number | null;
  current: string;
  next: string;
}) {
  const percent = progress && progress.players > 0 ? Math.min(100, Math.round((100 * progress.answered) / progress.players)) : 0;
  return (
    <div className="grid gap-2 rounded-md bg-black/20 p-3 text-sm" data-testid="live-insight">
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        <span className="flex items-center gap-1.5" data-testid="live-phones">
          <Smartphone className="size-4 text-muted" aria-hidden />
          {phonesText(presence?.players ?? 0)}
        </span>
        <span className="flex items-center gap-1.5" data-testid="live-displays">
          <Monitor className="size-4 text-muted" aria-hidden />
          {displaysText(presence?.displays ?? 0)}
        </span>
        {countdown !== null && (
          <span className="mq-mono flex items-center gap-1.5" data-testid="live-time-left">
            <Timer className="size-4 text-muted" aria-hidden />
            {formatCountdown(countdown)} left
          </span>
        )}
      </div>
      {progress && (
        <div className="grid gap-1">
          <p className="font-semibold" data-testid="live-answered">
            {answeredText(progress.answered, progress.players)}
          </p>
          <div
            role="progressbar"
            aria-label="Answers in"
            aria-valuemin={0}
            aria-valuemax={progress.players}
            aria-valuenow={progress.answered}
            className="h-2 overflow-hidden rounded-full bg-white/10"
          >
            <div className="h-full rounded-full bg-primary transition-[width] duration-300" style={{ width: `${percent}%` }} />
          </div>
        </div>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
        <dt className="text-muted">Now</dt>
        <dd className="truncate" data-testid="live-current-item" title={current}>
          {current}
        </dd>
        <dt className="text-muted">Next</dt>
        <dd className="truncate" data-testid="live-next-item" title={next}>
          {next}
        </dd>
      </dl>
    </div>
  );
}

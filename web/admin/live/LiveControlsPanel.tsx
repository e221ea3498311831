import { useState } from 'react';
import { Collapsible } from 'radix-ui';
import { ChevronDown, Pause, Play, SkipForward, Wifi, WifiOff } from 'lucide-react';
import type { AdminClientMessage, AdminServerMessage } from './adminSocket';
import { liveCounterText } from './adminSocket';
import type { AdminSessionState } from '../../../protocol/index';
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
  const token = getAdminToken();
  const { status, closed, send } = useSessionSocket<AdminServerMessage>({
    sessionId: session.id,
    type: 'admin',
    params: { token: token ?? '' },
    enabled: !!token,
    onMessage: (message) => {
      if (message.type === 'session_state' && message.view === 'admin') setState(message);
      else if (message.type === 'error') errorToast(message.message);
    },
  });
  const online = status === 'open';
  const info = state?.session;
  const autoRotate = info?.autoRotate ?? session.autoRotate;
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

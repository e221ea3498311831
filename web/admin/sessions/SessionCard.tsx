import {
  BarChart3,
  Copy,
  ListOrdered,
  Monitor,
  MonitorUp,
  Palette,
  Pencil,
  Play,
  QrCode,
  RotateCcw,
  Square,
  Trash2,
  Trophy,
} from 'lucide-react';
import { formatDate, formatDateTime, titleWithLocalTime } from '../../common/format';
import { Button } from '../../common/ui/Button';
import { Card } from '../../common/ui/Card';
import type { Session } from '../types';
import { LiveControlsPanel } from '../live/LiveControlsPanel';
import { StatusBadge } from './StatusBadge';
import { useSessionActions } from './useSessionActions';
import { openDisplay } from './openDisplay';

export type SessionDialogKind = 'edit' | 'delete' | 'restart' | 'stop' | 'qr' | 'screen' | 'questions' | 'theme' | 'draw' | 'results';

interface Props {
  session: Session;
  auditoriumName?: string;
  onOpen: (kind: SessionDialogKind) => void;
}

/** The element id of a session's card: the Live now panel's rows lead to it. */
export function sessionCardId(sessionId: string): string {
  return `session-${sessionId}`;
}

/** One session: status, the actions its status allows (SPEC §2, §4), and Live Controls while live. */
export function SessionCard({ session, auditoriumName, onOpen }: Props) {
  const { start, stop, duplicate } = useSessionActions();
  const { status } = session;
  const live = status === 'live';
  const busy = start.isPending || stop.isPending;

  return (
    <Card
      id={sessionCardId(session.id)}
      // Focusable by script only: the Live now panel moves the operator here (LiveNowPanel.tsx);
      // a keyboard user sees the app's usual focus outline (styles.css). Scrolled to, it stops
      // below the sticky DashboardHeader (at most 5.5rem tall, its title on two lines on a phone).
      tabIndex={-1}
      className="flex scroll-mt-28 flex-col gap-4 p-5"
      data-testid="session-card"
      aria-label={`Session ${session.title}`}
      role="article"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 break-words text-lg font-semibold">{session.audienceTitle ? titleWithLocalTime(session.title) : session.title}</h3>
        <StatusBadge status={status} />
      </div>
      <dl className="grid gap-1 text-sm text-muted">
        <div className="flex gap-1">
          <dt>Created</dt>
          <dd>{formatDate(session.createdAt)}</dd>
        </div>
        {session.startsAt && (
          <div className="flex gap-1">
            <dt>Starts</dt>
            <dd>{formatDateTime(session.startsAt)}</dd>
          </div>
        )}
        {auditoriumName && (
          <div className="flex gap-1">
            <dt>Auditorium</dt>
            <dd>{auditoriumName}</dd>
          </div>
        )}
      </dl>

      <div className="flex flex-wrap gap-2">
        {(status === 'draft' || status === 'scheduled') && (
          <Button size="sm" variant="success" disabled={busy} onClick={() => start.mutate(session)}>
            <Play aria-hidden />
            Start
          </Button>
        )}
        {live && (
          <Button size="sm" variant="destructive" disabled={busy} onClick={() => onOpen('stop')}>
            <Square aria-hidden />
            Stop
          </Button>
        )}
        {status === 'finished' && (
          <Button size="sm" onClick={() => onOpen('restart')}>
            <RotateCcw aria-hidden />
            Restart
          </Button>
        )}
        <Button size="sm" variant="outline" onClick={() => void openDisplay(session.id)}>
          <Monitor aria-hidden />
          Display
        </Button>
        <Button size="sm" variant="outline" onClick={() => onOpen('screen')}>
          <MonitorUp aria-hidden />
          Screen Link
        </Button>
        <Button size="sm" variant="outline" onClick={() => onOpen('qr')}>
          <QrCode aria-hidden />
          QR Code
        </Button>
      </div>
      <div className="flex flex-wrap gap-2 border-t border-border pt-4">
        <Button size="sm" variant="secondary" disabled={duplicate.isPending} onClick={() => duplicate.mutate(session)}>
          <Copy aria-hidden />
          Duplicate
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onOpen('questions')}>
          <ListOrdered aria-hidden />
          Questions
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onOpen('theme')}>
          <Palette aria-hidden />
          Theme
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onOpen('results')}>
          <BarChart3 aria-hidden />
          Results
        </Button>
        {session.prizeDraw?.enabled && (
          <Button size="sm" variant="secondary" onClick={() => onOpen('draw')}>
            <Trophy aria-hidden />
            Prize Draw
          </Button>
        )}
        {!live && (
          <>
            <Button size="sm" variant="secondary" onClick={() => onOpen('edit')}>
              <Pencil aria-hidden />
              Edit
            </Button>
            <Button size="sm" variant="secondary" className="text-red-300" onClick={() => onOpen('delete')}>
              <Trash2 aria-hidden />
              Delete
            </Button>
          </>
        )}
      </div>
      {live && <LiveControlsPanel session={session} />}
    </Card>
  );
}

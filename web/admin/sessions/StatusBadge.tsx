import { CircleDot } from 'lucide-react';
import { Badge } from '../../common/ui/Card';
import type { SessionStatus } from '../types';

const tones = { draft: 'neutral', scheduled: 'info', live: 'danger', finished: 'success' } as const;

/** Upper-case status; live pulses (SPEC §2). */
export function StatusBadge({ status }: { status: SessionStatus }) {
  return (
    <Badge tone={tones[status] ?? 'neutral'} data-testid="status-badge">
      {status === 'live' && <CircleDot className="size-3 animate-pulse" aria-hidden />}
      {status.toUpperCase()}
    </Badge>
  );
}

import { useEffect, useState } from 'react';
import { api } from '../../common/api';
import { Button } from '../../common/ui/Button';
import type { Session } from '../types';
import { CheckboxField } from '../ui/Toggles';
import { StatusBadge } from '../sessions/StatusBadge';
import { useAdminMutation } from '../useAdminMutation';

interface Props {
  mediaId: string;
  sessions: Session[];
  assigned: Set<string>;
}

/** Checkbox list of all sessions; Save sends only the differences (SPEC §7). */
export function MediaAssignments({ mediaId, sessions, assigned }: Props) {
  const assignedKey = [...assigned].sort().join(',');
  const [selected, setSelected] = useState<Set<string>>(new Set(assigned));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setSelected(new Set(assigned)), [assignedKey]);

  const save = useAdminMutation<void>({
    mutationFn: async () => {
      const toAdd = [...selected].filter((id) => !assigned.has(id));
      const toRemove = [...assigned].filter((id) => !selected.has(id));
      await Promise.all([
        ...toAdd.map((sessionId) => api.post(`/api/admin/sessions/${sessionId}/media`, { mediaId })),
        ...toRemove.map((sessionId) => api.delete(`/api/admin/sessions/${sessionId}/media/${mediaId}`)),
      ]);
    },
    invalidate: [['/api/admin/sessions']],
    success: 'Assignments updated',
    error: 'Failed to update assignments. Please try again.',
  });
  const changed = sessions.some((s) => selected.has(s.id) !== assigned.has(s.id));

  if (sessions.length === 0) return <p className="text-sm text-muted">No sessions yet.</p>;
  return (
    <div className="grid gap-3">
      <ul className="grid max-h-48 grid-cols-1 gap-2 overflow-y-auto pr-1">
        {sessions.map((s) => (
          <li key={s.id}>
            <CheckboxField
              id={`media-${mediaId}-session-${s.id}`}
              checked={selected.has(s.id)}
              onCheckedChange={(on) =>
                setSelected((prev) => {
                  const next = new Set(prev);
                  if (on) next.add(s.id);
                  else next.delete(s.id);
                  return next;
                })
              }
              label={
                <>
                  <span className="min-w-0 flex-1 truncate">{s.title}</span>
                  <StatusBadge status={s.status} />
                </>
              }
            />
          </li>
        ))}
      </ul>
      <Button size="sm" disabled={!changed || save.isPending} onClick={() => save.mutate()}>
        {save.isPending ? 'Saving...' : 'Save Assignments'}
      </Button>
    </div>
  );
}

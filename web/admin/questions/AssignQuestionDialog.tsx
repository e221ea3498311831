import { useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { api } from '../../common/api';
import { Button } from '../../common/ui/Button';
import { Label } from '../../common/ui/Field';
import { keys, useSessions } from '../queries';
import type { Question, SessionQuestionLink } from '../types';
import { AppDialog } from '../ui/Dialog';
import { SimpleSelect } from '../ui/Select';
import { StatusBadge } from '../sessions/StatusBadge';
import { useAdminMutation } from '../useAdminMutation';

interface Props {
  open: boolean;
  question: Question | undefined;
  onClose: () => void;
}

/** Which sessions hold this question, with Remove, and assigning it to one more (SPEC §2). */
export function AssignQuestionDialog({ open, question, onClose }: Props) {
  const sessions = useSessions();
  const [target, setTarget] = useState('');
  const all = sessions.data ?? [];
  const links = useQueries({
    queries: all.map((s) => ({ queryKey: keys.sessionQuestions(s.id), enabled: open })),
  });
  const linksBySession = new Map(all.map((s, i) => [s.id, (links[i]?.data as SessionQuestionLink[] | undefined) ?? []]));
  const loading = links.some((l) => l.isPending && open);
  const holds = (sessionId: string) => linksBySession.get(sessionId)?.some((l) => l.questionId === question?.id);
  const assigned = all.filter((s) => holds(s.id));
  // Finished sessions are excluded from question assignment (SPEC §4).
  const candidates = all.filter((s) => !holds(s.id) && s.status !== 'finished');

  const assign = useAdminMutation<string>({
    mutationFn: (sessionId) => {
      const existing = linksBySession.get(sessionId) ?? [];
      const orderIndex = existing.length ? Math.max(...existing.map((l) => l.orderIndex)) + 1 : 0;
      return api.post(`/api/admin/sessions/${sessionId}/questions`, { questionId: question!.id, orderIndex });
    },
    invalidate: [['/api/admin/sessions'], keys.questions],
    success: 'Question assigned to session',
    error: 'Failed to assign question',
    onSuccess: () => setTarget(''),
  });
  const unassign = useAdminMutation<string>({
    mutationFn: (sessionId) => api.delete(`/api/admin/sessions/${sessionId}/questions/${question!.id}`),
    invalidate: [['/api/admin/sessions'], keys.questions],
    success: 'Question removed from session',
    error: 'Failed to remove question from session',
  });

  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setTarget('');
          onClose();
        }
      }}
      title="Assign Question"
      description={question?.text}
    >
      <div className="grid grid-cols-1 gap-6">
        <section aria-labelledby="assigned-sessions-heading" className="grid gap-2">
          <h3 id="assigned-sessions-heading" className="text-sm font-semibold">
            Assigned Sessions
          </h3>
          {loading ? (
            <p role="status" className="text-sm text-muted">
              Loading...
            </p>
          ) : assigned.length === 0 ? (
            <p className="text-sm text-muted">Not assigned to any session yet.</p>
          ) : (
            <ul className="grid grid-cols-1 gap-2">
              {assigned.map((s) => (
                <li key={s.id} className="flex items-center justify-between gap-3 rounded-lg border border-border bg-surface-2 px-3 py-2">
                  <span className="flex min-w-0 items-center gap-2">
                    <span className="min-w-0 text-sm break-words">{s.title}</span>
                    <StatusBadge status={s.status} />
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={unassign.isPending}
                    aria-label={`Remove from ${s.title}`}
                    onClick={() => unassign.mutate(s.id)}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="grid grid-cols-1 gap-2">
          <Label htmlFor="assign-session">Assign to Session</Label>
          <div className="flex gap-2">
            <SimpleSelect
              id="assign-session"
              value={target}
              onValueChange={setTarget}
              placeholder={candidates.length ? 'Select a session' : 'No sessions available'}
              disabled={candidates.length === 0}
              options={candidates.map((s) => ({ value: s.id, label: s.title }))}
            />
            <Button disabled={!target || assign.isPending} onClick={() => assign.mutate(target)}>
              {assign.isPending ? 'Assigning...' : 'Assign'}
            </Button>
          </div>
        </section>
      </div>
    </AppDialog>
  );
}

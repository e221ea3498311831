import { api } from '../../common/api';
import { keys } from '../queries';
import type { Session } from '../types';
import { ConfirmDialog } from '../ui/Dialog';
import { useAdminMutation } from '../useAdminMutation';
import { useSessionActions } from './useSessionActions';

interface Props {
  open: boolean;
  session: Session;
  onClose: () => void;
}

export function DeleteSessionDialog({ open, session, onClose }: Props) {
  const remove = useAdminMutation<string>({
    mutationFn: (id) => api.delete(`/api/admin/sessions/${id}`),
    invalidate: [keys.sessions],
    success: 'Session deleted successfully',
    error: 'Cannot delete this session',
    onSuccess: onClose,
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Delete Session"
      description={`Are you sure you want to delete "${session.title}"? Its items, links and scores are removed too. This cannot be undone.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      destructive
      pending={remove.isPending}
      onConfirm={() => remove.mutate(session.id)}
    />
  );
}

export function RestartSessionDialog({ open, session, onClose }: Props) {
  const restart = useAdminMutation<string>({
    mutationFn: (id) => api.post(`/api/admin/sessions/${id}/restart`),
    invalidate: [keys.sessions],
    success: 'Session restarted. All scores and answers have been cleared.',
    error: 'Failed to restart session',
    onSuccess: onClose,
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Restart Session"
      description={`Restart "${session.title}"? This clears all player scores and answers of this session and starts it again from the first item.`}
      confirmLabel="Restart"
      pendingLabel="Restarting..."
      destructive
      pending={restart.isPending}
      onConfirm={() => restart.mutate(session.id)}
    />
  );
}

/** Stop ends the game for the whole room: it asks first (DESIGN §17). */
export function StopSessionDialog({ open, session, onClose }: Props) {
  const { stop } = useSessionActions();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Stop Session"
      description="Players will see the final standings."
      confirmLabel="Stop Session"
      pendingLabel="Stopping..."
      destructive
      pending={stop.isPending}
      onConfirm={() => stop.mutate(session, { onSuccess: onClose })}
    />
  );
}

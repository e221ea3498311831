import { api } from '../../common/api';
import { keys } from '../queries';
import type { Session } from '../types';
import { useAdminMutation } from '../useAdminMutation';

/** Start, stop and duplicate: the empty-body status calls of SPEC §7 with their toasts. */
export function useSessionActions() {
  const start = useAdminMutation<Session>({
    mutationFn: (s) => api.post(`/api/admin/sessions/${s.id}/start`),
    invalidate: [keys.sessions],
    success: 'Session started',
    error: 'Failed to start session',
  });
  const stop = useAdminMutation<Session>({
    mutationFn: (s) => api.post(`/api/admin/sessions/${s.id}/stop`),
    invalidate: [keys.sessions],
    success: 'Session stopped',
    error: 'Failed to stop session',
  });
  const duplicate = useAdminMutation<Session>({
    mutationFn: (s) => api.post(`/api/admin/sessions/${s.id}/duplicate`),
    invalidate: [keys.sessions],
    success: 'Session duplicated successfully',
    error: 'Failed to duplicate session',
  });
  return { start, stop, duplicate };
}

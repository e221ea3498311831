import { api } from '../../../common/api';
import { keys } from '../../queries';
import type { SessionItem, SlideType } from '../../types';
import { useAdminMutation } from '../../useAdminMutation';

export type Direction = 'up' | 'down';
export const NEW_MEDIA_BLOCK_COUNT = 3;

/**
 * The item list's calls (SPEC §7 "Session contents"). Question items move and leave through the
 * session-question endpoints, the other kinds through the generic item endpoints.
 */
export function useItemActions(sessionId: string) {
  const base = `/api/admin/sessions/${sessionId}`;
  const invalidate = [keys.sessionItems(sessionId), keys.sessionQuestions(sessionId), keys.questions];

  const reorderQuestion = useAdminMutation<{ item: SessionItem; direction: Direction }>({
    mutationFn: ({ item, direction }) => api.post(`${base}/questions/${item.questionId}/reorder`, { direction }),
    invalidate,
    error: 'Failed to reorder question',
  });
  const reorderItem = useAdminMutation<{ item: SessionItem; direction: Direction }>({
    mutationFn: ({ item, direction }) => api.post(`${base}/items/${item.id}/reorder`, { direction }),
    invalidate,
    error: 'Failed to reorder item',
  });
  const removeQuestion = useAdminMutation<SessionItem>({
    mutationFn: (item) => api.delete(`${base}/questions/${item.questionId}`),
    invalidate,
    success: 'Question removed from session',
    error: 'Failed to remove question',
  });
  const removeItem = useAdminMutation<SessionItem>({
    mutationFn: (item) => api.delete(`${base}/items/${item.id}`),
    invalidate,
    success: 'Item removed from session',
    error: 'Failed to remove item',
  });
  const addMediaBlock = useAdminMutation<void>({
    mutationFn: () => api.post(`${base}/media-blocks`, { mediaItemCount: NEW_MEDIA_BLOCK_COUNT }),
    invalidate,
    success: 'Media block added to session',
    error: 'Failed to add media block',
  });
  const updateMediaBlock = useAdminMutation<{ item: SessionItem; mediaItemCount: number }>({
    mutationFn: ({ item, mediaItemCount }) => api.put(`${base}/media-blocks/${item.id}`, { mediaItemCount }),
    invalidate,
    success: 'Media block updated',
    error: 'Failed to update media block',
  });
  const addSlide = useAdminMutation<{ slideType: SlideType; text?: string }>({
    mutationFn: ({ slideType, text }) =>
      api.post(`${base}/slides`, text === undefined ? { slideType } : { slideType, slideData: { text } }),
    invalidate,
    success: 'Slide added to session',
    error: 'Failed to add slide',
  });

  return {
    reorder: (item: SessionItem, direction: Direction) =>
      (item.itemType === 'question' ? reorderQuestion : reorderItem).mutate({ item, direction }),
    reorderPending: reorderQuestion.isPending || reorderItem.isPending,
    remove: (item: SessionItem) => (item.itemType === 'question' ? removeQuestion : removeItem).mutate(item),
    removePending: removeQuestion.isPending || removeItem.isPending,
    addMediaBlock,
    updateMediaBlock,
    addSlide,
  };
}

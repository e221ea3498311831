/**
 * Builds the engine's Program from storage: the session's items in order with their full
 * questions (correctIndex included: the engine decides who sees it), each question's media, and
 * the session's assigned media in rotation order (MediaRepository.listForSession).
 */
import type { MediaView } from '../../../protocol/index.js';
import type { Program, ProgramItem } from '../engine/index.js';
import type { Media } from '../../storage/media.js';
import type { Store } from '../../storage/store.js';
import type { RoomSession } from './storage.js';

function toMediaView({ id, filePath, phoneFilePath, fileType, duration, promotionalLink }: Media): MediaView {
  return { id, filePath, phoneFilePath, fileType, duration, promotionalLink };
}

export async function loadProgram(store: Store, session: RoomSession): Promise<Program> {
  const items = await store.items.list(session.id);
  const questionIds = items.flatMap((item) => (item.itemType === 'question' && item.questionId ? [item.questionId] : []));
  const questions = new Map((await store.questions.getMany(questionIds)).map((q) => [q.id, q]));
  const mediaIds = [...new Set([...questions.values()].flatMap((q) => (q.mediaId ? [q.mediaId] : [])))];
  const [attached, assigned] = await Promise.all([store.media.getMany(mediaIds), store.media.listForSession(session.id)]);
  const questionMedia = new Map(attached.map((m) => [m.id, toMediaView(m)]));
  const media = assigned.map(toMediaView);

  const programItems: ProgramItem[] = [];
  for (const item of items) {
    if (item.itemType === 'question') {
      const q = item.questionId ? questions.get(item.questionId) : undefined;
      if (!q) continue; // deleted meanwhile: its item goes with it (foreign key cascade)
      programItems.push({
        itemType: 'question',
        id: item.id,
        question: {
          id: q.id,
          text: q.text,
          choices: q.choices,
          correctIndex: q.correctIndex,
          points: q.points,
          timeLimitSeconds: q.timeLimitSeconds,
          categories: q.categories,
          media: (q.mediaId && questionMedia.get(q.mediaId)) || null,
        },
      });
    } else if (item.itemType === 'slide') {
      programItems.push({ itemType: 'slide', id: item.id, slideType: item.slideType ?? 'intro', slideData: item.slideData ?? {} });
    } else {
      programItems.push({ itemType: 'media_block', id: item.id, mediaItemCount: item.mediaItemCount ?? 1 });
    }
  }
  return { sessionId: session.id, items: programItems, media, mediaItemsPerTransition: session.mediaItemsPerTransition };
}

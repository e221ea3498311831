import { useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { Button } from '../../common/ui/Button';
import { keys, useMediaLibrary, useSessions } from '../queries';
import type { SessionMediaLink } from '../types';
import { EmptyState, LoadError, LoadingText, TabHeader } from '../ui/TabHeader';
import { MediaCard } from './MediaCard';
import { UploadMediaDialog } from './UploadMediaDialog';

/** The media library (SPEC §2 "Media tab"). */
export function MediaTab() {
  const media = useMediaLibrary();
  const sessions = useSessions();
  const [uploadOpen, setUploadOpen] = useState(false);
  const allSessions = sessions.data ?? [];

  // Which sessions hold which media: one lookup per session, shared by every card.
  const lookups = useQueries({ queries: allSessions.map((s) => ({ queryKey: keys.sessionMedia(s.id) })) });
  const assignedTo = (mediaId: string) =>
    new Set(
      allSessions
        .filter((_, i) => ((lookups[i]?.data as SessionMediaLink[] | undefined) ?? []).some((l) => l.mediaId === mediaId))
        .map((s) => s.id),
    );

  return (
    <section>
      <TabHeader
        title="Media Library"
        subtitle="Images and videos shown between questions"
        action={
          <Button onClick={() => setUploadOpen(true)}>
            <Upload aria-hidden />
            Upload Media
          </Button>
        }
      />
      {media.isPending ? (
        <LoadingText>Loading media...</LoadingText>
      ) : media.isError ? (
        <LoadError error={media.error} />
      ) : media.data.length === 0 ? (
        <EmptyState>No media uploaded yet. Upload images or videos to display between questions.</EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {media.data.map((item) => (
            <MediaCard key={item.id} media={item} sessions={allSessions} assignedSessionIds={assignedTo(item.id)} />
          ))}
        </div>
      )}
      <UploadMediaDialog open={uploadOpen} onOpenChange={setUploadOpen} />
    </section>
  );
}

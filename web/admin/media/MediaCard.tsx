import { useEffect, useState } from 'react';
import { Collapsible } from 'radix-ui';
import { ChevronDown, ExternalLink, Trash2 } from 'lucide-react';
import { api } from '../../common/api';
import { Badge, Card } from '../../common/ui/Card';
import { Button } from '../../common/ui/Button';
import { Input, Label } from '../../common/ui/Field';
import { keys } from '../queries';
import type { Media, Session } from '../types';
import { ConfirmDialog } from '../ui/Dialog';
import { useAdminMutation } from '../useAdminMutation';
import { MediaAssignments } from './MediaAssignments';

export function isVideo(media: Media): boolean {
  return media.fileType === 'video' || media.fileType.startsWith('video/');
}

/** SPEC §5: sent only when a positive number that differs from the current value. */
export function durationToSend(raw: string, current: number): number | null {
  const value = Number(raw);
  return raw.trim() !== '' && Number.isFinite(value) && value > 0 && value !== current ? value : null;
}

interface Props {
  media: Media;
  sessions: Session[];
  assignedSessionIds: Set<string>;
}

export function MediaCard({ media, sessions, assignedSessionIds }: Props) {
  const [duration, setDuration] = useState(String(media.duration));
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => setDuration(String(media.duration)), [media.duration]);
  const name = media.filePath.split('/').filter(Boolean).pop() ?? media.filePath;
  const durationId = `media-duration-${media.id}`;

  const updateDuration = useAdminMutation<number>({
    mutationFn: (value) => api.patch(`/api/media/${media.id}`, { duration: value }),
    invalidate: [keys.mediaLibrary, keys.adminMedia],
    success: 'Duration updated',
    error: 'Failed to update duration. Please try again.',
  });
  const remove = useAdminMutation<void>({
    mutationFn: () => api.delete(`/api/media/${media.id}`),
    invalidate: [keys.mediaLibrary, keys.adminMedia, ['/api/admin/sessions']],
    success: { title: 'Media deleted', description: 'The media has been removed from all sessions.' },
    error: 'Failed to delete media. Please try again.',
    onSuccess: () => setConfirmDelete(false),
  });

  function saveDuration() {
    const value = durationToSend(duration, media.duration);
    if (value === null) {
      setDuration(String(media.duration));
      return;
    }
    updateDuration.mutate(value, { onError: () => setDuration(String(media.duration)) });
  }

  return (
    <Card className="flex flex-col overflow-hidden" role="article" aria-label={`Media ${name}`} data-testid="media-card">
      <div className="flex aspect-video items-center justify-center bg-black">
        {isVideo(media) ? (
          <video src={media.filePath} controls preload="metadata" className="size-full object-contain" aria-label={`Video ${name}`} />
        ) : (
          <img src={media.filePath} alt={`Media ${name}`} className="size-full object-contain" loading="lazy" />
        )}
      </div>
      <div className="grid grid-cols-1 gap-3 p-4">
        <div className="flex items-center justify-between gap-2">
          <div className="flex min-w-0 items-center gap-2">
            <Badge tone={isVideo(media) ? 'info' : 'success'}>{isVideo(media) ? 'Video' : 'Image'}</Badge>
            <span className="truncate text-xs text-muted" title={name}>
              {name}
            </span>
          </div>
          <Button size="icon" variant="ghost" className="text-red-300" aria-label={`Delete media ${name}`} onClick={() => setConfirmDelete(true)}>
            <Trash2 aria-hidden />
          </Button>
        </div>
        {media.phoneFilePath && <p className="text-xs text-muted">Phone version available</p>}
        {media.promotionalLink && (
          <a href={media.promotionalLink} target="_blank" rel="noreferrer" className="flex min-w-0 items-center gap-1 text-xs text-indigo-300 hover:underline" title={media.promotionalLink}>
            <ExternalLink className="size-3 shrink-0" aria-hidden />
            <span className="truncate">{media.promotionalLink}</span>
          </a>
        )}
        <div className="flex items-center gap-2">
          <Label htmlFor={durationId} className="shrink-0">
            Duration (seconds)
          </Label>
          <Input
            id={durationId}
            type="number"
            min={1}
            max={60}
            className="h-8 w-24"
            value={duration}
            onChange={(e) => setDuration(e.target.value)}
            onBlur={saveDuration}
            onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
          />
        </div>
        <Collapsible.Root>
          <Collapsible.Trigger asChild>
            <Button size="sm" variant="secondary" className="group w-full justify-between">
              Assign to Sessions
              <ChevronDown className="transition-transform group-data-[state=open]:rotate-180" aria-hidden />
            </Button>
          </Collapsible.Trigger>
          <Collapsible.Content className="pt-3">
            <MediaAssignments mediaId={media.id} sessions={sessions} assigned={assignedSessionIds} />
          </Collapsible.Content>
        </Collapsible.Root>
      </div>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Media"
        description={`Delete ${name}? It is removed from all sessions.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </Card>
  );
}

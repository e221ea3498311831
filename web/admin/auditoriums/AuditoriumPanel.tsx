import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MonitorPlay, Plus, Settings2, Theater, Trash2, Upload } from 'lucide-react';
import { api } from '../../common/api';
import { formatDate, showingTime, withLocalOffset } from '../../common/format';
import { Button } from '../../common/ui/Button';
import { Card } from '../../common/ui/Card';
import { Input, Label } from '../../common/ui/Field';
import { cn } from '../../common/ui/cn';
import { keys, useSessions } from '../queries';
import type { Auditorium, Showtime } from '../types';
import { useAdminMutation } from '../useAdminMutation';
import { ImportShowtimesDialog } from './ImportShowtimesDialog';
import { PreShowSettingsDialog } from './PreShowSettingsDialog';
import { auditoriumState, preShowText } from './preShowState';
import { ScreenLinkDialog } from './ScreenLinkDialog';

/** The state line follows the clock: the list is read again this often while the tab is open. */
const SHOWTIMES_REFRESH_MS = 15_000;

type Open = 'none' | 'screen' | 'settings' | 'import';

/** One auditorium: its state, pre-show settings, screen link and showtimes (DESIGN §13). */
export function AuditoriumPanel({ auditorium }: { auditorium: Auditorium }) {
  const [open, setOpen] = useState<Open>('none');
  const showtimes = useQuery<Showtime[]>({ queryKey: keys.showtimes(auditorium.id), refetchInterval: SHOWTIMES_REFRESH_MS });
  const sessions = useSessions();
  const template = sessions.data?.find((s) => s.id === auditorium.preShowSessionId);
  const hasTemplate = auditorium.preShowSessionId !== null;
  const state = auditoriumState(showtimes.data ?? [], hasTemplate);
  const close = () => setOpen('none');

  return (
    <Card className="grid gap-4 p-4" role="article" aria-label={`Auditorium ${auditorium.name}`}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-secondary/15">
          <Theater className="size-5 text-indigo-300" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate font-semibold">{auditorium.name}</p>
          <p className="text-xs text-muted">Created {formatDate(auditorium.createdAt)}</p>
          <p className="text-xs text-muted">
            {template
              ? `Pre-show: ${template.title} · starts ${auditorium.preShowLeadMinutes} min, ends ${auditorium.preShowEndMinutes} min before each film`
              : 'No pre-show session chosen'}
          </p>
        </div>
        <span
          className={cn(
            'rounded-full px-3 py-1 text-xs font-medium',
            state.kind === 'live' ? 'bg-green-500/20 text-green-300' : state.kind === 'next' ? 'bg-indigo-500/20 text-indigo-200' : 'bg-surface-2 text-muted',
          )}
          data-testid="auditorium-state"
        >
          {state.text}
        </span>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => setOpen('screen')}>
          <MonitorPlay aria-hidden />
          Screen Link
        </Button>
        <Button variant="outline" size="sm" onClick={() => setOpen('settings')}>
          <Settings2 aria-hidden />
          Pre-show Settings
        </Button>
        <Button variant="outline" size="sm" onClick={() => setOpen('import')}>
          <Upload aria-hidden />
          Import Showtimes
        </Button>
      </div>
      <AddShowtimeForm auditoriumId={auditorium.id} />
      <ShowtimeList showtimes={showtimes.data} loading={showtimes.isPending} hasTemplate={hasTemplate} auditoriumId={auditorium.id} />
      <ScreenLinkDialog open={open === 'screen'} auditorium={auditorium} onClose={close} />
      <PreShowSettingsDialog open={open === 'settings'} auditorium={auditorium} onClose={close} />
      <ImportShowtimesDialog open={open === 'import'} auditorium={auditorium} onClose={close} />
    </Card>
  );
}

function AddShowtimeForm({ auditoriumId }: { auditoriumId: string }) {
  const [title, setTitle] = useState('');
  const [when, setWhen] = useState('');
  const add = useAdminMutation<{ title: string; startsAt: string }>({
    mutationFn: (body) => api.post(`/api/admin/auditoriums/${auditoriumId}/showtimes`, body),
    invalidate: [keys.showtimes(auditoriumId)],
    success: 'Showtime added',
    error: 'Failed to add the showtime',
    onSuccess: () => {
      setTitle('');
      setWhen('');
    },
  });
  const startsAt = when ? withLocalOffset(when) : null;
  const canAdd = title.trim().length > 0 && startsAt !== null && !add.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canAdd) add.mutate({ title: title.trim(), startsAt: startsAt! });
  }

  const titleId = `showtime-title-${auditoriumId}`;
  const timeId = `showtime-time-${auditoriumId}`;
  return (
    <form className="flex flex-wrap items-end gap-2" onSubmit={submit} aria-label="Add showtime">
      <div className="grid min-w-48 flex-1 gap-1">
        <Label htmlFor={titleId}>Film</Label>
        <Input id={titleId} placeholder="e.g. Casablanca" value={title} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={timeId}>Starts at (your local time)</Label>
        <Input id={timeId} type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} />
      </div>
      <Button type="submit" disabled={!canAdd}>
        <Plus aria-hidden />
        {add.isPending ? 'Adding...' : 'Add Showtime'}
      </Button>
    </form>
  );
}

function ShowtimeList({ showtimes, loading, hasTemplate, auditoriumId }: { showtimes: Showtime[] | undefined; loading: boolean; hasTemplate: boolean; auditoriumId: string }) {
  const remove = useAdminMutation<Showtime>({
    mutationFn: (s) => api.delete(`/api/admin/showtimes/${s.id}`),
    invalidate: [keys.showtimes(auditoriumId), keys.sessions],
    success: 'Showtime deleted',
    error: 'Failed to delete the showtime',
  });
  if (loading) return <p className="text-sm text-muted">Loading showtimes...</p>;
  if (!showtimes || showtimes.length === 0) return <p className="text-sm text-muted">No showtimes yet. Add one or import a file.</p>;
  return (
    <ul className="grid gap-1" aria-label="Showtimes">
      {showtimes.map((s) => (
        <li key={s.id} className="flex items-center gap-3 rounded-md border border-border px-3 py-2 text-sm" data-testid="showtime">
          {/* On a phone the time, the film and the pre-show wrap onto lines of their own. */}
          <div className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-3 gap-y-0.5">
            <span className="shrink-0 font-mono sm:w-56">{showingTime(s.startsAt)}</span>
            <span className="min-w-0 flex-1 basis-48 font-medium break-words">{s.title}</span>
            <span className={cn('text-xs', s.preShow.state === 'live' ? 'text-green-300' : 'text-muted')}>{preShowText(s, hasTemplate)}</span>
          </div>
          <Button variant="ghost" size="icon" aria-label={`Delete showtime ${s.title}`} onClick={() => remove.mutate(s)} disabled={remove.isPending}>
            <Trash2 aria-hidden />
          </Button>
        </li>
      ))}
    </ul>
  );
}

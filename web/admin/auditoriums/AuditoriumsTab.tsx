import { useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import { api } from '../../common/api';
import { Button } from '../../common/ui/Button';
import { Input, Label } from '../../common/ui/Field';
import { keys, useAuditoriums } from '../queries';
import { AppDialog } from '../ui/Dialog';
import { EmptyState, LoadError, LoadingText, TabHeader } from '../ui/TabHeader';
import { useAdminMutation } from '../useAdminMutation';
import { AuditoriumPanel } from './AuditoriumPanel';

export function AuditoriumsTab() {
  const auditoriums = useAuditoriums();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  // SPEC §8: a failure creating an auditorium shows no error message.
  const create = useAdminMutation<string>({
    mutationFn: (value) => api.post('/api/admin/auditoriums', { name: value }),
    invalidate: [keys.auditoriums],
    success: 'Auditorium created',
    error: null,
    onSuccess: () => {
      setOpen(false);
      setName('');
    },
  });
  const canCreate = name.trim().length > 0 && !create.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canCreate) create.mutate(name.trim());
  }

  return (
    <section>
      <TabHeader
        title="Auditoriums"
        subtitle="The screens and halls sessions run in, with their showtimes and pre-shows"
        action={
          <Button onClick={() => setOpen(true)}>
            <Plus aria-hidden />
            Add Auditorium
          </Button>
        }
      />
      {auditoriums.isPending ? (
        <LoadingText>Loading auditoriums...</LoadingText>
      ) : auditoriums.isError ? (
        <LoadError error={auditoriums.error} />
      ) : auditoriums.data.length === 0 ? (
        <EmptyState>No auditoriums yet. Create your first auditorium!</EmptyState>
      ) : (
        <div className="grid gap-3">
          {auditoriums.data.map((a) => (
            <AuditoriumPanel key={a.id} auditorium={a} />
          ))}
        </div>
      )}
      <AppDialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) setName('');
        }}
        title="Add Auditorium"
        description="Name a screen or hall."
        size="sm"
        footer={
          <>
            <Button
              variant="outline"
              onClick={() => {
                setOpen(false);
                setName('');
              }}
            >
              Cancel
            </Button>
            <Button type="submit" form="auditorium-form" disabled={!canCreate}>
              {create.isPending ? 'Creating...' : 'Create'}
            </Button>
          </>
        }
      >
        <form id="auditorium-form" className="grid gap-2" onSubmit={submit}>
          <Label htmlFor="auditorium-name">Auditorium Name</Label>
          <Input id="auditorium-name" placeholder="e.g. Screen 1" value={name} onChange={(e) => setName(e.target.value)} />
        </form>
      </AppDialog>
    </section>
  );
}

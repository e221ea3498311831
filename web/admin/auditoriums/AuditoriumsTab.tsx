import { useState } from 'react';
import { Plus } from 'lucide-react';
import { api } from '../../common/api';
import { Button } from '../../common/ui/Button';
import { Input } from '../../common/ui/Field';
import { keys, useAuditoriums } from '../queries';
import { FormDialog, FormField } from '../ui/Form';
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
    onSuccess: () => close(),
  });
  const canCreate = name.trim().length > 0;
  const close = () => {
    setOpen(false);
    setName('');
  };

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
      <FormDialog
        open={open}
        onClose={close}
        title="Add Auditorium"
        description="Name a screen or hall."
        size="sm"
        formId="auditorium-form"
        submitLabel="Create"
        pendingLabel="Creating..."
        pending={create.isPending}
        canSubmit={canCreate}
        onSubmit={() => {
          if (canCreate) create.mutate(name.trim());
        }}
      >
        <FormField id="auditorium-name" label="Auditorium Name">
          {(field) => <Input {...field} placeholder="e.g. Screen 1" value={name} onChange={(e) => setName(e.target.value)} />}
        </FormField>
      </FormDialog>
    </section>
  );
}

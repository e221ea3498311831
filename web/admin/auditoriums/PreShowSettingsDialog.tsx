import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../common/api';
import { Button } from '../../common/ui/Button';
import { HelpText, Input, Label } from '../../common/ui/Field';
import { keys, useSessions } from '../queries';
import type { Auditorium } from '../types';
import { AppDialog } from '../ui/Dialog';
import { SimpleSelect } from '../ui/Select';
import { useAdminMutation } from '../useAdminMutation';

const NONE = 'none';

/** Template session, lead and end minutes of an auditorium's pre-shows (DESIGN §13). */
export function PreShowSettingsDialog({ open, auditorium, onClose }: { open: boolean; auditorium: Auditorium; onClose: () => void }) {
  const sessions = useSessions();
  const [template, setTemplate] = useState(NONE);
  const [lead, setLead] = useState('20');
  const [end, setEnd] = useState('2');
  useEffect(() => {
    if (!open) return;
    setTemplate(auditorium.preShowSessionId ?? NONE);
    setLead(String(auditorium.preShowLeadMinutes));
    setEnd(String(auditorium.preShowEndMinutes));
  }, [open, auditorium]);

  const save = useAdminMutation<void>({
    mutationFn: () =>
      api.put(`/api/admin/auditoriums/${auditorium.id}`, {
        preShowSessionId: template === NONE ? null : template,
        preShowLeadMinutes: Number(lead),
        preShowEndMinutes: Number(end),
      }),
    invalidate: [keys.auditoriums],
    success: 'Pre-show settings saved',
    error: 'Failed to save the pre-show settings',
    onSuccess: onClose,
  });

  const leadNumber = Number(lead);
  const endNumber = Number(end);
  const valid = Number.isInteger(leadNumber) && leadNumber >= 1 && leadNumber <= 120 && Number.isInteger(endNumber) && endNumber >= 0 && endNumber <= 60 && endNumber < leadNumber;
  const options = [
    { value: NONE, label: 'No automatic pre-shows' },
    ...(sessions.data ?? []).map((s) => ({ value: s.id, label: s.title })),
  ];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (valid && !save.isPending) save.mutate();
  }

  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Pre-show Settings"
      description={`For every showtime in ${auditorium.name}, Marquee copies this session and runs it before the film.`}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="pre-show-form" disabled={!valid || save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      <form id="pre-show-form" className="grid gap-4" onSubmit={submit}>
        <div className="grid gap-2">
          <Label htmlFor="pre-show-template">Pre-show session</Label>
          <SimpleSelect id="pre-show-template" value={template} onValueChange={setTemplate} options={options} />
          <HelpText>Its questions, slides, media and theme; the idle screen wears its theme too.</HelpText>
        </div>
        <div className="grid grid-cols-2 gap-4">
          <div className="grid gap-2">
            <Label htmlFor="pre-show-lead">Starts (minutes before the film)</Label>
            <Input id="pre-show-lead" type="number" min={1} max={120} value={lead} onChange={(e) => setLead(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="pre-show-end">Ends (minutes before the film)</Label>
            <Input id="pre-show-end" type="number" min={0} max={60} value={end} onChange={(e) => setEnd(e.target.value)} />
          </div>
        </div>
        <HelpText>Starts 1–120 minutes before, ends 0–60 minutes before and after it starts. The final standings stay on screen until the film begins.</HelpText>
      </form>
    </AppDialog>
  );
}

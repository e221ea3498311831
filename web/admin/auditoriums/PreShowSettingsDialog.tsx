import { api } from '../../common/api';
import { HelpText, Input } from '../../common/ui/Field';
import { keys, useSessions } from '../queries';
import type { Auditorium } from '../types';
import { FormDialog, FormField } from '../ui/Form';
import { SimpleSelect } from '../ui/Select';
import { useOpenedState } from '../ui/useOpenedState';
import { useAdminMutation } from '../useAdminMutation';

const NONE = 'none';

/** Template session, lead and end minutes of an auditorium's pre-shows (DESIGN §13). */
export function PreShowSettingsDialog({ open, auditorium, onClose }: { open: boolean; auditorium: Auditorium; onClose: () => void }) {
  const sessions = useSessions();
  const [form, setForm] = useOpenedState(
    open,
    () => ({ template: auditorium.preShowSessionId ?? NONE, lead: String(auditorium.preShowLeadMinutes), end: String(auditorium.preShowEndMinutes) }),
    auditorium.id,
  );
  const { template, lead, end } = form;
  const setField = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

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

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Pre-show Settings"
      description={`For every showtime in ${auditorium.name}, Marquee copies this session and runs it before the film.`}
      formId="pre-show-form"
      submitLabel="Save"
      pendingLabel="Saving..."
      pending={save.isPending}
      canSubmit={valid}
      onSubmit={() => {
        if (valid) save.mutate();
      }}
    >
      <FormField id="pre-show-template" label="Pre-show session" help="Its questions, slides, media and theme; the idle screen wears its theme too.">
        {(field) => <SimpleSelect id={field.id} value={template} onValueChange={setField('template')} options={options} />}
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField id="pre-show-lead" label="Starts (minutes before the film)">
          {(field) => <Input {...field} type="number" min={1} max={120} value={lead} onChange={(e) => setField('lead')(e.target.value)} />}
        </FormField>
        <FormField id="pre-show-end" label="Ends (minutes before the film)">
          {(field) => <Input {...field} type="number" min={0} max={60} value={end} onChange={(e) => setField('end')(e.target.value)} />}
        </FormField>
      </div>
      <HelpText>Starts 1–120 minutes before, ends 0–60 minutes before and after it starts. The final standings stay on screen until the film begins.</HelpText>
    </FormDialog>
  );
}

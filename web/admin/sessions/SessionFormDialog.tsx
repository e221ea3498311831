import { api } from '../../common/api';
import { Input, Textarea } from '../../common/ui/Field';
import { keys, useAuditoriums } from '../queries';
import type { Session } from '../types';
import { FormDialog, FormField } from '../ui/Form';
import { SimpleSelect } from '../ui/Select';
import { SwitchField } from '../ui/Toggles';
import { useOpenedState } from '../ui/useOpenedState';
import { useAdminMutation } from '../useAdminMutation';
import { EMPTY_SESSION_FORM, createBody, formFromSession, prizeDrawComplete, updateBody, type SessionFormValues } from './sessionForm';

const NO_AUDITORIUM = 'none';

/** The form's on/off settings, each a switch with its note. */
const SWITCHES = {
  autoRotate: { id: 'session-auto-rotate', label: 'Auto-Rotate', description: 'Move through the items automatically in a continuous loop.' },
  generatedNicknames: {
    id: 'session-generated-nicknames',
    label: 'Generated Nicknames',
    description: 'Give every player a friendly two-word name instead of the one they type.',
  },
  prizeDrawEnabled: {
    id: 'session-prize-draw',
    label: 'Prize Draw',
    description: 'Players may tick a consent box when they join; only they can be drawn as winners.',
  },
} as const;

interface Props {
  open: boolean;
  /** Present: Edit Session; absent: Create New Session. */
  session?: Session;
  onOpenChange: (open: boolean) => void;
}

export function SessionFormDialog({ open, session, onOpenChange }: Props) {
  const auditoriums = useAuditoriums();
  // Each opening starts from the session (edit) or a blank form (create).
  const [values, setValues] = useOpenedState<SessionFormValues>(open, () => (session ? formFromSession(session) : EMPTY_SESSION_FORM), session?.id);
  const editing = !!session;

  const close = () => onOpenChange(false);
  const create = useAdminMutation<SessionFormValues>({
    mutationFn: (v) => api.post('/api/admin/sessions', createBody(v)),
    invalidate: [keys.sessions],
    success: 'Session created successfully',
    error: 'Failed to create session',
    onSuccess: close,
  });
  const update = useAdminMutation<SessionFormValues>({
    mutationFn: (v) => api.put(`/api/admin/sessions/${session!.id}`, updateBody(v)),
    invalidate: [keys.sessions],
    success: 'Session updated successfully',
    error: 'Failed to update session',
    onSuccess: close,
  });
  const pending = create.isPending || update.isPending;
  const canSubmit = values.title.trim().length > 0 && prizeDrawComplete(values) && !pending;
  const set = <K extends keyof SessionFormValues>(key: K, value: SessionFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const toggle = (key: keyof typeof SWITCHES) => <SwitchField {...SWITCHES[key]} checked={values[key]} onCheckedChange={(on) => set(key, on)} />;

  const auditoriumOptions = [
    { value: NO_AUDITORIUM, label: 'No auditorium' },
    ...(auditoriums.data ?? []).map((a) => ({ value: a.id, label: a.name })),
  ];

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={editing ? 'Edit Session' : 'Create New Session'}
      description={editing ? 'Change the settings of this session.' : 'Set up a new trivia session.'}
      formId="session-form"
      submitLabel={editing ? 'Update Session' : 'Create Session'}
      pendingLabel={editing ? 'Updating...' : 'Creating...'}
      pending={pending}
      canSubmit={canSubmit}
      onSubmit={() => {
        if (canSubmit) (editing ? update : create).mutate(values);
      }}
    >
      <FormField id="session-title" label="Session Title">
        {(field) => <Input {...field} placeholder="e.g. Friday Night Movie Trivia" value={values.title} onChange={(e) => set('title', e.target.value)} required />}
      </FormField>
      <FormField id="session-auditorium" label="Auditorium (optional)">
        {(field) => (
          <SimpleSelect
            id={field.id}
            value={values.auditoriumId || NO_AUDITORIUM}
            onValueChange={(v) => set('auditoriumId', v === NO_AUDITORIUM ? '' : v)}
            options={auditoriumOptions}
          />
        )}
      </FormField>
      <FormField id="session-starts-at" label="Start Time (optional)" help="A future start time schedules the session to go live by itself.">
        {(field) => <Input {...field} type="datetime-local" value={values.startsAt} onChange={(e) => set('startsAt', e.target.value)} />}
      </FormField>
      {toggle('autoRotate')}
      <FormField id="session-media-per-transition" label="Media Items per Transition" help="How many media items play between questions (1 to 10).">
        {(field) => (
          <Input {...field} type="number" min={1} max={10} value={values.mediaItemsPerTransition} onChange={(e) => set('mediaItemsPerTransition', e.target.value)} />
        )}
      </FormField>
      <FormField id="session-return-message" label="Return Message (optional)">
        {(field) => (
          <Textarea
            {...field}
            rows={2}
            placeholder="Shown to players who try to join from outside the theater"
            value={values.returnMessage}
            onChange={(e) => set('returnMessage', e.target.value)}
          />
        )}
      </FormField>
      <FormField
        id="session-max-players"
        label="Maximum Players"
        help="Registrations allowed in this game (1 to 100,000); one more is told the game is full."
      >
        {(field) => <Input {...field} type="number" min={1} max={100000} value={values.maxPlayers} onChange={(e) => set('maxPlayers', e.target.value)} />}
      </FormField>
      {toggle('generatedNicknames')}
      {toggle('prizeDrawEnabled')}
      {values.prizeDrawEnabled && (
        <>
          <FormField id="session-prize" label="Prize">
            {(field) => <Input {...field} placeholder="e.g. Two tickets for next Friday" maxLength={200} value={values.prize} onChange={(e) => set('prize', e.target.value)} />}
          </FormField>
          <FormField id="session-consent-text" label="Consent Text" help="Shown next to an unticked box on the join form and stored with each yes.">
            {(field) => <Textarea {...field} rows={3} maxLength={1000} value={values.consentText} onChange={(e) => set('consentText', e.target.value)} />}
          </FormField>
        </>
      )}
    </FormDialog>
  );
}

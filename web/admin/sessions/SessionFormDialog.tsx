import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../common/api';
import { Button } from '../../common/ui/Button';
import { HelpText, Input, Label, Textarea } from '../../common/ui/Field';
import { keys, useAuditoriums } from '../queries';
import type { Session } from '../types';
import { AppDialog } from '../ui/Dialog';
import { SimpleSelect } from '../ui/Select';
import { SwitchField } from '../ui/Toggles';
import { useAdminMutation } from '../useAdminMutation';
import { EMPTY_SESSION_FORM, createBody, formFromSession, prizeDrawComplete, updateBody, type SessionFormValues } from './sessionForm';

const NO_AUDITORIUM = 'none';

interface Props {
  open: boolean;
  /** Present: Edit Session; absent: Create New Session. */
  session?: Session;
  onOpenChange: (open: boolean) => void;
}

export function SessionFormDialog({ open, session, onOpenChange }: Props) {
  const auditoriums = useAuditoriums();
  const [values, setValues] = useState<SessionFormValues>(EMPTY_SESSION_FORM);
  const editing = !!session;

  // Each opening starts from the session (edit) or a blank form (create).
  useEffect(() => {
    if (open) setValues(session ? formFromSession(session) : EMPTY_SESSION_FORM);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, session?.id]);

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

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    (editing ? update : create).mutate(values);
  }

  const auditoriumOptions = [
    { value: NO_AUDITORIUM, label: 'No auditorium' },
    ...(auditoriums.data ?? []).map((a) => ({ value: a.id, label: a.name })),
  ];

  return (
    <AppDialog
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? 'Edit Session' : 'Create New Session'}
      description={editing ? 'Change the settings of this session.' : 'Set up a new trivia session.'}
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form="session-form" disabled={!canSubmit}>
            {editing ? (pending ? 'Updating...' : 'Update Session') : pending ? 'Creating...' : 'Create Session'}
          </Button>
        </>
      }
    >
      <form id="session-form" className="grid gap-4" onSubmit={onSubmit}>
        <div className="grid gap-2">
          <Label htmlFor="session-title">Session Title</Label>
          <Input
            id="session-title"
            placeholder="e.g. Friday Night Movie Trivia"
            value={values.title}
            onChange={(e) => set('title', e.target.value)}
            required
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="session-auditorium">Auditorium (optional)</Label>
          <SimpleSelect
            id="session-auditorium"
            value={values.auditoriumId || NO_AUDITORIUM}
            onValueChange={(v) => set('auditoriumId', v === NO_AUDITORIUM ? '' : v)}
            options={auditoriumOptions}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="session-starts-at">Start Time (optional)</Label>
          <Input
            id="session-starts-at"
            type="datetime-local"
            value={values.startsAt}
            onChange={(e) => set('startsAt', e.target.value)}
            aria-describedby="session-starts-at-help"
          />
          <HelpText id="session-starts-at-help">A future start time schedules the session to go live by itself.</HelpText>
        </div>
        <SwitchField
          id="session-auto-rotate"
          label="Auto-Rotate"
          description="Move through the items automatically in a continuous loop."
          checked={values.autoRotate}
          onCheckedChange={(v) => set('autoRotate', v)}
        />
        <div className="grid gap-2">
          <Label htmlFor="session-media-per-transition">Media Items per Transition</Label>
          <Input
            id="session-media-per-transition"
            type="number"
            min={1}
            max={10}
            value={values.mediaItemsPerTransition}
            onChange={(e) => set('mediaItemsPerTransition', e.target.value)}
            aria-describedby="session-media-help"
          />
          <HelpText id="session-media-help">How many media items play between questions (1 to 10).</HelpText>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="session-return-message">Return Message (optional)</Label>
          <Textarea
            id="session-return-message"
            rows={2}
            placeholder="Shown to players who try to join from outside the theater"
            value={values.returnMessage}
            onChange={(e) => set('returnMessage', e.target.value)}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="session-max-players">Maximum Players</Label>
          <Input
            id="session-max-players"
            type="number"
            min={1}
            max={100000}
            value={values.maxPlayers}
            onChange={(e) => set('maxPlayers', e.target.value)}
            aria-describedby="session-max-players-help"
          />
          <HelpText id="session-max-players-help">Registrations allowed in this game (1 to 100,000); one more is told the game is full.</HelpText>
        </div>
        <SwitchField
          id="session-generated-nicknames"
          label="Generated Nicknames"
          description="Give every player a friendly two-word name instead of the one they type."
          checked={values.generatedNicknames}
          onCheckedChange={(v) => set('generatedNicknames', v)}
        />
        <SwitchField
          id="session-prize-draw"
          label="Prize Draw"
          description="Players may tick a consent box when they join; only they can be drawn as winners."
          checked={values.prizeDrawEnabled}
          onCheckedChange={(v) => set('prizeDrawEnabled', v)}
        />
        {values.prizeDrawEnabled && (
          <>
            <div className="grid gap-2">
              <Label htmlFor="session-prize">Prize</Label>
              <Input id="session-prize" placeholder="e.g. Two tickets for next Friday" maxLength={200} value={values.prize} onChange={(e) => set('prize', e.target.value)} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="session-consent-text">Consent Text</Label>
              <Textarea
                id="session-consent-text"
                rows={3}
                maxLength={1000}
                value={values.consentText}
                onChange={(e) => set('consentText', e.target.value)}
                aria-describedby="session-consent-help"
              />
              <HelpText id="session-consent-help">Shown next to an unticked box on the join form and stored with each yes.</HelpText>
            </div>
          </>
        )}
      </form>
    </AppDialog>
  );
}

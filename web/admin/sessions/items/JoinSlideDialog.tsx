import { useEffect, useState } from 'react';
import { Input } from '../../../common/ui/Field';
import { FormDialog, FormField } from '../../ui/Form';

export const DEFAULT_JOIN_SLIDE_TEXT = 'Scan to Join!';

interface Props {
  open: boolean;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onAdd: (text: string) => void;
}

/** Asks for the Join slide's text; Cancel puts the default back (SPEC §2). */
export function JoinSlideDialog({ open, pending, onOpenChange, onAdd }: Props) {
  const [text, setText] = useState(DEFAULT_JOIN_SLIDE_TEXT);
  const canAdd = text.trim().length > 0 && !pending;

  // Every closing (Cancel, Escape, or after the slide was added) leaves the default for next time.
  useEffect(() => {
    if (!open) setText(DEFAULT_JOIN_SLIDE_TEXT);
  }, [open]);

  function cancel() {
    setText(DEFAULT_JOIN_SLIDE_TEXT);
    onOpenChange(false);
  }
  return (
    <FormDialog
      open={open}
      onClose={cancel}
      title="Add Join Slide"
      description="A slide with a QR code players scan to join."
      size="sm"
      formId="join-slide-form"
      submitLabel="Add Slide"
      pendingLabel="Adding..."
      pending={pending}
      canSubmit={canAdd}
      onSubmit={() => {
        if (canAdd) onAdd(text.trim());
      }}
    >
      <FormField id="join-slide-text" label="Slide Text" help="This text appears above the QR code.">
        {(field) => <Input {...field} placeholder="Scan to Join!" value={text} onChange={(e) => setText(e.target.value)} />}
      </FormField>
    </FormDialog>
  );
}

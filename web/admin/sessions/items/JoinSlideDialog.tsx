import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../common/ui/Button';
import { HelpText, Input, Label } from '../../../common/ui/Field';
import { AppDialog } from '../../ui/Dialog';

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
  function submit(event: FormEvent) {
    event.preventDefault();
    if (canAdd) onAdd(text.trim());
  }

  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => (o ? onOpenChange(true) : cancel())}
      title="Add Join Slide"
      description="A slide with a QR code players scan to join."
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" form="join-slide-form" disabled={!canAdd}>
            {pending ? 'Adding...' : 'Add Slide'}
          </Button>
        </>
      }
    >
      <form id="join-slide-form" className="grid gap-2" onSubmit={submit}>
        <Label htmlFor="join-slide-text">Slide Text</Label>
        <Input
          id="join-slide-text"
          placeholder="Scan to Join!"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="join-slide-text-help"
        />
        <HelpText id="join-slide-text-help">This text appears above the QR code.</HelpText>
      </form>
    </AppDialog>
  );
}

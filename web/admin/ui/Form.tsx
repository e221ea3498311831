import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../common/ui/Button';
import { HelpText, Label } from '../../common/ui/Field';
import { AppDialog, type AppDialogProps } from './Dialog';

/** What a field's control needs to be named by its label and described by its help text. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
}

export interface FormFieldProps {
  id: string;
  label: ReactNode;
  /** A note under the control; the control is described by it (`aria-describedby`). */
  help?: ReactNode;
  /** Replaces the default layout, 'grid gap-2' (label above the control). */
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A label, a control and an optional help text, wired together by ids so screen readers read the
 * label and the note with the control. The control is the caller's (Input, Textarea, SimpleSelect).
 */
export function FormField({ id, label, help, className, children }: FormFieldProps) {
  const helpId = help ? `${id}-help` : undefined;
  return (
    <div className={className ?? 'grid gap-2'}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-describedby': helpId })}
      {help && <HelpText id={helpId}>{help}</HelpText>}
    </div>
  );
}

export interface FormDialogProps extends Pick<AppDialogProps, 'open' | 'title' | 'description' | 'size'> {
  /** Cancel, Escape and the close button all come here. */
  onClose: () => void;
  /** The form's id: its submit button sits in the dialog's footer, outside the form. */
  formId: string;
  submitLabel: string;
  /** The submit button's text while `pending` ('Saving...'). */
  pendingLabel: string;
  pending: boolean;
  /** False disables the submit button (it is disabled while pending too). */
  canSubmit?: boolean;
  /** Runs on submit (the button, or Enter in a field) unless a submit is already pending. */
  onSubmit: () => void;
  /** Skip the browser's own validation bubbles (the caller checks and says what is missing). */
  noValidate?: boolean;
  formClassName?: string;
  children: ReactNode;
}

/** A dialog around one form, with the footer every admin form has: Cancel, then the submit button. */
export function FormDialog(props: FormDialogProps) {
  const { open, onClose, formId, submitLabel, pendingLabel, pending, canSubmit = true, onSubmit, noValidate, formClassName, children, ...dialog } = props;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!pending) onSubmit();
  }
  return (
    <AppDialog
      {...dialog}
      open={open}
      onOpenChange={(next) => !next && onClose()}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={!canSubmit || pending}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate={noValidate} className={formClassName ?? 'grid gap-4'} onSubmit={submit}>
        {children}
      </form>
    </AppDialog>
  );
}

export interface FileFieldProps {
  id: string;
  label: ReactNode;
  /** The `accept` list of the file picker ('.csv,text/csv'). */
  accept: string;
  onFile: (file: File) => void;
  /** Empty the picker after each pick, so choosing the same file again runs again. */
  clearAfterPick?: boolean;
}

/** A labelled one-file picker whose "Choose File" looks like a secondary button. */
export function FileField({ id, label, accept, onFile, clearAfterPick }: FileFieldProps) {
  return (
    <FormField id={id} label={label}>
      {(field) => (
        <input
          {...field}
          type="file"
          accept={accept}
          className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-surface-raised file:px-3 file:py-2 file:text-sm"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onFile(file);
            if (clearAfterPick) e.target.value = '';
          }}
        />
      )}
    </FormField>
  );
}

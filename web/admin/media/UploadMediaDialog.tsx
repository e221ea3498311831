import { useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { api } from '../../common/api';
import { toast } from '../../common/toast';
import { HelpText, Input } from '../../common/ui/Field';
import { keys } from '../queries';
import { FormDialog, FormField } from '../ui/Form';
import { useAdminMutation } from '../useAdminMutation';
import { LazyUploader } from './LazyUploader';
import type { UploadedFile } from './UppyUploader';
import { MEDIA_MAX_BYTES, mediaPath } from './mediaPaths';

export const DEFAULT_MEDIA_DURATION_SECONDS = 3;
const MEDIA_TYPES = ['image/*', 'video/*'];
const NOTE = 'Images or videos, one file, up to 50 MB.';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Upload Media (SPEC §2): display file required, phone file and link optional, then Save Media. */
export function UploadMediaDialog({ open, onOpenChange }: Props) {
  const [display, setDisplay] = useState<UploadedFile | null>(null);
  const [phone, setPhone] = useState<UploadedFile | null>(null);
  const [link, setLink] = useState('');
  const [duration, setDuration] = useState(String(DEFAULT_MEDIA_DURATION_SECONDS));
  const [formKey, setFormKey] = useState(0);

  function reset() {
    setDisplay(null);
    setPhone(null);
    setLink('');
    setDuration(String(DEFAULT_MEDIA_DURATION_SECONDS));
    setFormKey((k) => k + 1);
  }
  function close() {
    reset();
    onOpenChange(false);
  }

  const save = useAdminMutation<void>({
    mutationFn: () =>
      api.post('/api/media', {
        filePath: mediaPath(display!.objectId),
        phoneFilePath: phone ? mediaPath(phone.objectId) : null,
        fileType: display!.kind,
        duration: clampDuration(duration),
        promotionalLink: link.trim() || null,
      }),
    invalidate: [keys.mediaLibrary, keys.adminMedia],
    success: () => ({
      title: 'Media created',
      description: `${display?.kind === 'video' ? 'Video' : 'Image'} has been added to the media library.`,
    }),
    error: 'Failed to save media. Please try again.',
    onSuccess: close,
  });

  function submit() {
    if (!display) {
      toast({ title: 'Missing required files', description: 'Please upload at least the display media file.', variant: 'destructive' });
      return;
    }
    save.mutate();
  }

  const uploadHandlers = (which: 'display' | 'phone') => ({
    onUploaded: (file: UploadedFile) => {
      (which === 'display' ? setDisplay : setPhone)(file);
      toast({ title: which === 'display' ? 'Display media uploaded' : 'Phone media uploaded', description: file.fileName });
    },
    onUploadError: () =>
      toast({
        title: 'Upload failed',
        description: `Failed to upload ${which} media. Please try again.`,
        variant: 'destructive',
      }),
    onProcessingError: () =>
      toast({
        title: 'Upload processing failed',
        description: 'Failed to process uploaded file. Please try again.',
        variant: 'destructive',
      }),
  });

  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Upload Media"
      description="Shown on the display between questions; phones get the phone version when there is one."
      size="lg"
      formId="media-form"
      submitLabel="Save Media"
      pendingLabel="Saving..."
      pending={save.isPending}
      canSubmit={!!display}
      onSubmit={submit}
      formClassName="grid gap-5"
    >
      <UploadSlot label="Display Media (required)" help={`Shown on the big screen. ${NOTE}`} uploaded={display}>
        <MediaUploader id="media-display" resetKey={formKey} {...uploadHandlers('display')} />
      </UploadSlot>
      <UploadSlot label="Phone Media (optional)" help={`A phone-optimised version, e.g. portrait or smaller. ${NOTE}`} uploaded={phone}>
        <MediaUploader id="media-phone" resetKey={formKey} {...uploadHandlers('phone')} />
      </UploadSlot>
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <FormField id="media-link" label="Promotional Link (optional)">
          {(field) => <Input {...field} type="url" placeholder="https://example.com" value={link} onChange={(e) => setLink(e.target.value)} />}
        </FormField>
        <FormField id="media-duration" label="Duration (seconds)">
          {(field) => <Input {...field} type="number" min={1} max={60} value={duration} onChange={(e) => setDuration(e.target.value)} />}
        </FormField>
      </div>
    </FormDialog>
  );
}

/** 1 to 60 seconds, the form default when empty or not a number (SPEC §5). */
export function clampDuration(raw: string): number {
  const value = Math.round(Number(raw));
  if (!raw.trim() || Number.isNaN(value)) return DEFAULT_MEDIA_DURATION_SECONDS;
  return Math.min(60, Math.max(1, value));
}

/** The library's uploader: one image or video of at most 50 MB, for the display or the phone version. */
function MediaUploader(props: { id: string; resetKey: number } & Pick<Parameters<typeof LazyUploader>[0], 'onUploaded' | 'onUploadError' | 'onProcessingError'>) {
  return (
    <LazyUploader {...props} kind="media" maxFileSize={MEDIA_MAX_BYTES} allowedFileTypes={MEDIA_TYPES} multipart note={NOTE} height={180} />
  );
}

function UploadSlot({
  label,
  help,
  uploaded,
  children,
}: {
  label: string;
  help?: string;
  uploaded: UploadedFile | null;
  children: React.ReactNode;
}) {
  return (
    <div className="grid gap-2" role="group" aria-label={label}>
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">{label}</span>
        {uploaded && (
          <span className="flex items-center gap-1 text-xs text-green-300">
            <CheckCircle2 className="size-3.5" aria-hidden />
            {uploaded.fileName} uploaded
          </span>
        )}
      </div>
      {help && <HelpText>{help}</HelpText>}
      {children}
    </div>
  );
}

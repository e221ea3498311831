import { useRef, useState } from 'react';
import { ImageIcon, Trash2, Upload } from 'lucide-react';
import { toast } from '../../../common/toast';
import { Button } from '../../../common/ui/Button';
import { AppDialog } from '../../ui/Dialog';
import { LazyUploader } from '../../media/LazyUploader';
import { THEME_IMAGE_MAX_BYTES, mediaPath } from '../../media/mediaPaths';

interface Props {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (path: string | undefined) => void;
}

/** One of the theme's three images: thumbnail, Upload (10 MB, images only, one file) and Remove. */
export function ThemeImageField({ id, label, value, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const uploaded = useRef(false);

  function close() {
    setOpen(false);
    setResetKey((k) => k + 1); // a cleared widget next time
  }

  return (
    <div className="flex items-center gap-3 rounded-lg border border-border bg-surface-2 p-3">
      <div className="flex size-14 shrink-0 items-center justify-center overflow-hidden rounded-md bg-background">
        {value ? <img src={value} alt={`${label} preview`} className="size-full object-contain" /> : <ImageIcon className="size-5 text-muted" aria-hidden />}
      </div>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium" id={`${id}-label`}>
          {label}
        </p>
        <p className="truncate text-xs text-muted">{value ?? 'No image'}</p>
      </div>
      <Button size="sm" variant="secondary" aria-describedby={`${id}-label`} onClick={() => setOpen(true)}>
        <Upload aria-hidden />
        Upload
      </Button>
      {value && (
        <Button size="icon" variant="ghost" aria-label={`Remove ${label}`} onClick={() => onChange(undefined)}>
          <Trash2 aria-hidden />
        </Button>
      )}
      <AppDialog
        open={open}
        onOpenChange={(o) => (o ? setOpen(true) : close())}
        title={`Upload ${label}`}
        description="One image, at most 10 MB. A PNG or SVG with a transparent background is recommended."
      >
        <LazyUploader
          id={`theme-${id}`}
          resetKey={resetKey}
          kind="theme"
          maxFileSize={THEME_IMAGE_MAX_BYTES}
          allowedFileTypes={['image/*']}
          multipart={false}
          note="Images only, up to 10 MB. PNG or SVG with a transparent background recommended."
          onUploaded={(file) => {
            uploaded.current = true;
            onChange(mediaPath(file.objectId));
          }}
          onComplete={(succeeded) => {
            if (succeeded > 0 && uploaded.current) {
              toast({ title: 'Upload successful', description: `${label} uploaded. Click Save Theme to keep it.` });
              uploaded.current = false;
              close();
            } else {
              toast({ title: 'Upload failed: Failed to upload image. Please try again.', variant: 'destructive' });
            }
          }}
        />
      </AppDialog>
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { Button } from '../../common/ui/Button';
import { keys } from '../queries';
import { QrCanvas } from '../sessions/QrCodeDialog';
import type { Auditorium } from '../types';
import { AppDialog } from '../ui/Dialog';

/** The auditorium screen's address: the public base URL followed by /display/auditorium/{id} (DESIGN §13). */
export function auditoriumScreenLink(publicUrl: string, auditoriumId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/display/auditorium/${auditoriumId}`;
}

/** The QR dialog of an auditorium: the one URL its projector needs, whatever session runs. */
export function ScreenLinkDialog({ open, auditorium, onClose }: { open: boolean; auditorium: Auditorium; onClose: () => void }) {
  const publicUrl = useQuery<{ publicUrl: string }>({ queryKey: keys.publicUrl, enabled: open });
  const link = publicUrl.data ? auditoriumScreenLink(publicUrl.data.publicUrl, auditorium.id) : null;
  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Auditorium Screen"
      description={`Open this address once on the screen of ${auditorium.name}: it shows every pre-show by itself.`}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <div className="flex flex-col items-center gap-4 text-center">
        <div className="rounded-lg bg-white p-2">{link ? <QrCanvas text={link} /> : <div className="size-[300px]" aria-hidden />}</div>
        <p className="select-all break-all rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-sm" data-testid="screen-link">
          {link ?? 'Loading...'}
        </p>
        {link && (
          <a className="inline-flex items-center gap-2 text-sm text-indigo-300 underline" href={link} target="_blank" rel="noreferrer">
            <ExternalLink className="size-4" aria-hidden />
            Open the screen
          </a>
        )}
      </div>
    </AppDialog>
  );
}

import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { Button } from '../../common/ui/Button';
import { keys } from '../queries';
import { QrCanvas, absoluteOn } from './QrCanvas';
import { AppDialog } from './Dialog';

interface Props {
  open: boolean;
  title: string;
  description: string;
  /** The screen-link query (a session's or an auditorium's): `{ url, key }` (DESIGN §15). */
  queryKey: readonly string[];
  onClose: () => void;
}

/**
 * A big screen's address with its display key, as a QR code and text: the key is what lets the
 * screen show join links, so this address is for the projector, not for the audience.
 */
export function ScreenLinkDialog({ open, title, description, queryKey, onClose }: Props) {
  const publicUrl = useQuery<{ publicUrl: string }>({ queryKey: keys.publicUrl, enabled: open });
  const screen = useQuery<{ url: string; key: string }>({ queryKey, enabled: open });
  const link = publicUrl.data && screen.data ? absoluteOn(publicUrl.data.publicUrl, screen.data.url) : null;
  return (
    <AppDialog open={open} onOpenChange={(o) => !o && onClose()} title={title} description={description} footer={<Button onClick={onClose}>Close</Button>}>
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
        <p className="text-xs text-muted">Keep this address for the screen: it carries the key that lets the screen show join codes.</p>
      </div>
    </AppDialog>
  );
}

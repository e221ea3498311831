import { useQuery } from '@tanstack/react-query';
import { Button } from '../../common/ui/Button';
import { keys } from '../queries';
import type { Session } from '../types';
import { AppDialog } from '../ui/Dialog';
import { QrCanvas, absoluteOn } from '../ui/QrCanvas';

/** How often the open dialog renews its signed link, as the display does (DESIGN §15). */
export const QR_DIALOG_REFRESH_MS = 60_000;

interface Props {
  open: boolean;
  session: Session;
  onClose: () => void;
}

/**
 * The Player QR Code dialog: a signed join link of the same shape as the display's (DESIGN §15),
 * fetched with the operator's login and renewed while the dialog is open, so a phone that scans
 * it can join even where joining needs a signed link.
 */
export function QrCodeDialog({ open, session, onClose }: Props) {
  const publicUrl = useQuery<{ publicUrl: string }>({ queryKey: keys.publicUrl, enabled: open });
  const joinUrl = useQuery<{ url: string }>({
    queryKey: keys.joinUrl(session.id),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: open ? QR_DIALOG_REFRESH_MS : false,
  });
  const link = publicUrl.data && joinUrl.data ? absoluteOn(publicUrl.data.publicUrl, joinUrl.data.url) : null;

  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Player QR Code"
      description={`Scan this code to join ${session.title}`}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <div className="flex flex-col items-center gap-4 text-center">
        <p className="font-semibold">Scan to join the game</p>
        <div className="rounded-lg bg-white p-2">
          {link ? <QrCanvas text={link} /> : <div className="size-[300px]" aria-hidden />}
        </div>
        <div className="grid w-full gap-1">
          <p className="text-sm text-muted">Or manually enter this URL on your phone:</p>
          <p
            className="select-all break-all rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-sm"
            data-testid="join-link"
          >
            {link ?? 'Loading...'}
          </p>
        </div>
        <p className="text-xs text-muted">This link is signed: it works for a limited time, and renews while this window is open.</p>
      </div>
    </AppDialog>
  );
}

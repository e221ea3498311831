import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { Button } from '../../common/ui/Button';
import { keys } from '../queries';
import type { Session } from '../types';
import { AppDialog } from '../ui/Dialog';

/** The join link: the public base URL followed by /player/{sessionId} (SPEC §2). */
export function joinLink(publicUrl: string, sessionId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/player/${sessionId}`;
}

interface Props {
  open: boolean;
  session: Session;
  onClose: () => void;
}

export function QrCodeDialog({ open, session, onClose }: Props) {
  const publicUrl = useQuery<{ publicUrl: string }>({ queryKey: keys.publicUrl, enabled: open });
  const link = publicUrl.data ? joinLink(publicUrl.data.publicUrl, session.id) : null;

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
        <p className="text-xs text-muted">
          Tip: when Marquee runs in a hosted development environment, open its web view once before scanning, so the
          public address is awake and reachable from phones.
        </p>
      </div>
    </AppDialog>
  );
}

/** 300 px canvas, margin 2 modules, black on white (SPEC §9). Drawing failures are only logged (SPEC §8). */
export function QrCanvas({ text }: { text: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvasRef.current) return;
    QRCode.toCanvas(canvasRef.current, text, {
      width: 300,
      margin: 2,
      color: { dark: '#000000', light: '#ffffff' },
    }).catch((error: unknown) => console.error('QR code drawing failed', error));
  }, [text]);
  return <canvas ref={canvasRef} width={300} height={300} role="img" aria-label={`QR code for ${text}`} />;
}

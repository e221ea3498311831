import { useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import { api } from '../common/api';

/** SPEC §9: the display's QR code is 400 px with a 2-module margin, refreshed every 30 minutes. */
export const JOIN_QR_SIZE_PX = 400;
export const JOIN_LINK_REFRESH_MS = 30 * 60 * 1000;
/** After a failed fetch, try again sooner than the refresh: the link may be needed any minute. */
const JOIN_LINK_RETRY_MS = 60 * 1000;

/**
 * The signed join link (`GET /api/sessions/{id}/join-url`), made absolute on the display's own
 * origin: the phones reach the server the way the display does. Fetched when the display opens,
 * so the QR code is ready the moment a join slide comes up, then renewed before it expires.
 */
export function useJoinLink(sessionId: string, enabled: boolean): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const load = async () => {
      try {
        const answer = await api.get<{ url: string }>(`/api/sessions/${encodeURIComponent(sessionId)}/join-url`);
        if (cancelled) return;
        setUrl(new URL(answer.url, window.location.origin).toString());
        timer = setTimeout(load, JOIN_LINK_REFRESH_MS);
      } catch (error) {
        if (cancelled) return;
        console.error('Could not fetch the join link', error);
        timer = setTimeout(load, JOIN_LINK_RETRY_MS);
      }
    };
    void load();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [sessionId, enabled]);
  return url;
}

/** Black on white, as every phone camera expects. A drawing failure is only logged (SPEC §8). */
export function QrCanvas({ text }: { text: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvasRef.current) return;
    QRCode.toCanvas(canvasRef.current, text, {
      width: JOIN_QR_SIZE_PX,
      margin: 2,
      color: { dark: '#000000', light: '#ffffff' },
    }).catch((error: unknown) => console.error('QR code drawing failed', error));
  }, [text]);
  return (
    <canvas
      ref={canvasRef}
      width={JOIN_QR_SIZE_PX}
      height={JOIN_QR_SIZE_PX}
      style={{ width: JOIN_QR_SIZE_PX, height: JOIN_QR_SIZE_PX }}
      role="img"
      aria-label="QR code to join the game"
      data-join-url={text}
    />
  );
}

import { useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import { api } from '../common/api';

/** SPEC §9: the display's QR code is 400 px with a 2-module margin. */
export const JOIN_QR_SIZE_PX = 400;
/** DESIGN §15: links live JOIN_LINK_TTL_SECONDS (600 by default), so the display renews every minute. */
export const JOIN_LINK_REFRESH_MS = 60 * 1000;
/** After a failed fetch, try again sooner than the refresh: the link may be needed any minute. */
const JOIN_LINK_RETRY_MS = 15 * 1000;

/** The display key of this screen's address (`?key=`, from the admin's Display button or Screen Link). */
export function displayKeyOf(search: string): string | null {
  return new URLSearchParams(search).get('key');
}

/**
 * The signed join link (`GET /api/sessions/{id}/join-url?key=…`, DESIGN §15), made absolute on
 * the display's own origin: the phones reach the server the way the display does. Fetched when
 * the display opens, so the QR code is ready the moment a join slide comes up, then renewed.
 * Without a key (or with a wrong one) only an admin's browser gets a link; others show no code.
 */
export function useJoinLink(sessionId: string, enabled: boolean, displayKey: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const load = async () => {
      try {
        const query = displayKey ? `?key=${encodeURIComponent(displayKey)}` : '';
        const answer = await api.get<{ url: string }>(`/api/sessions/${encodeURIComponent(sessionId)}/join-url${query}`);
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
  }, [sessionId, enabled, displayKey]);
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

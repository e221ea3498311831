import { useEffect, useRef } from 'react';
import QRCode from 'qrcode';

/** A relative address made absolute on the public base URL (what phones and projectors reach). */
export function absoluteOn(publicUrl: string, relative: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${relative}`;
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

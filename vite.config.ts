import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The React app lives in web/; the server serves dist/web with an SPA fallback.
// In development the API, WebSocket and media paths go to the server on :3000.
const backend = 'http://localhost:3000';

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss()],
  // The server puts a fresh nonce in place of this for each page load (server/transport/http/csp.ts).
  html: { cspNonce: 'MARQUEE_CSP_NONCE' },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      // xfwd: the server builds join links from X-Forwarded-Host, so QR codes point at this dev server.
      '/api': { target: backend, xfwd: true },
      '/media': backend,
      '/ws': { target: backend, ws: true },
    },
  },
});

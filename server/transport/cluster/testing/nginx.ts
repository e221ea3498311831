/**
 * A real load balancer for the cluster tests: Debian's nginx, run as our own process on a free
 * port with a config written to a temp dir (the one docs/DEPLOY.md shows, minus TLS): plain
 * round robin, no stickiness, WebSocket upgrade, long read timeouts for sockets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../testing/child-server.js';

/** The instances behind this nginx believe its X-Forwarded-* (it runs on this machine: loopback). */
export const NGINX_TRUST_PROXY = 'loopback';

export const NGINX_BINARY = process.env.NGINX_BINARY ?? '/usr/sbin/nginx';

export interface TestNginx {
  baseUrl: string;
  close(): Promise<void>;
}

export function nginxConfig(port: number, upstreams: string[], dir: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 60m;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream marquee {
${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://marquee;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_buffering off;
    }
    location = /api/player/answer {
      keepalive_timeout 0;
      proxy_pass http://marquee;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout http_502 http_503 non_idempotent;
    }
  }
}
`;
}

export async function startNginx(upstreams: string[]): Promise<TestNginx> {
  if (!fs.existsSync(NGINX_BINARY)) throw new Error(`nginx is required for the cluster tests (${NGINX_BINARY}); npm test installs it (server/testing/prerequisites.ts)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-nginx-'));
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(port, upstreams, dir));
  const child: ChildProcess = spawn(NGINX_BINARY, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

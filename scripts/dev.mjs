// `npm run dev`: the server with reload on change (tsx watch) and Vite's dev server with hot reload.
// Open http://localhost:5173 (it proxies /api, /ws and /media to the server on port 3000).
// The server's JSON log lines go through pino-pretty (a devDependency) as coloured one-liners;
// `npm start` keeps plain JSON, one line per request, for log collectors.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = (name) => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin', name);

const server = spawn(bin('tsx'), ['watch', 'server/main.ts'], { stdio: ['inherit', 'pipe', 'inherit'] });
const pretty = spawn(
  bin('pino-pretty'),
  ['--colorize', '--singleLine', '--ignore', 'pid,hostname', '--translateTime', 'SYS:HH:MM:ss.l'],
  { stdio: ['pipe', 'inherit', 'inherit'] },
);
server.stdout.pipe(pretty.stdin);

const children = [server, pretty, spawn(bin('vite'), [], { stdio: 'inherit' })];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });

// The server's and the web app's builds, rebuilt when missing or older than their sources:
// `npm start` (start.mjs) and the bench (bench/targets.ts) run the server as built, never stale.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverEntry = path.join(root, 'dist', 'server', 'main.js');
const webEntry = path.join(root, 'dist', 'web', 'index.html');

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const sources = (dirs) => Math.max(...dirs.map((d) => newestMtime(path.join(root, d))));

const serverFresh = () => mtime(serverEntry) >= sources(['server', 'protocol']);
const LOCK_STALE_MS = 5 * 60_000;

/**
 * Builds the server when its build is older than server/ and protocol/. Several processes may ask
 * at once (bench tests in parallel after an edit): one builds under a lock, the others wait for it
 * rather than import files it is still writing.
 */
export function buildServerIfStale(log = console.log) {
  if (serverFresh()) return;
  const lock = path.join(root, 'dist', '.server-build-lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // A build that died holding the lock leaves it behind.
      if (Date.now() - mtime(lock) > LOCK_STALE_MS) fs.rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (serverFresh()) return;
    log('Building the server...');
    execSync('npm run build:server', { cwd: root, stdio: 'inherit' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export function buildWebIfStale(log = console.log) {
  if (mtime(webEntry) >= sources(['web', 'protocol'])) return;
  log('Building the web app...');
  execSync('npm run build:web', { cwd: root, stdio: 'inherit' });
}

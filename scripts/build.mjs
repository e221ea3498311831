// The server's and the web app's builds, rebuilt when missing or older than their sources:
// `npm start` (start.mjs) and the bench (bench/targets.ts) run the server as built, never stale.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntryIn = (dir) => path.join(dir, 'dist', 'server', 'main.js');
export const serverEntry = serverEntryIn(root);
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
/** A build is fresh when it is at least as new as every file of its source folders under `dir`. */
const isFresh = (entry, dir, sources) => mtime(entry) >= Math.max(...sources.map((d) => newestMtime(path.join(dir, d))));

const LOCK_STALE_MS = 5 * 60_000;

/**
 * Builds the server when its build is older than server/ and protocol/. Several processes may ask
 * at once (bench tests in parallel after an edit): one builds under a lock, the others wait for it
 * rather than import files it is still writing. `options` (tests): another tree and build command.
 */
export function buildServerIfStale(log = console.log, { dir = root, command = 'npm run build:server' } = {}) {
  const fresh = () => isFresh(serverEntryIn(dir), dir, ['server', 'protocol']);
  if (fresh()) return;
  const lock = path.join(dir, 'dist', '.server-build-lock');
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
    if (fresh()) return;
    log('Building the server...');
    execSync(command, { cwd: dir, stdio: 'inherit' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export function buildWebIfStale(log = console.log) {
  if (isFresh(webEntry, root, ['web', 'protocol'])) return;
  log('Building the web app...');
  execSync('npm run build:web', { cwd: root, stdio: 'inherit' });
}

// `npm start`: builds the server and the web app when the build is missing or older than the
// sources, then serves. Operators pull and start; nothing else to remember.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(root, 'dist', 'server', 'main.js');
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

if (mtime(serverEntry) < sources(['server', 'protocol'])) {
  console.log('Building the server...');
  execSync('npm run build:server', { cwd: root, stdio: 'inherit' });
}
if (mtime(webEntry) < sources(['web', 'protocol'])) {
  console.log('Building the web app...');
  execSync('npm run build:web', { cwd: root, stdio: 'inherit' });
}
// `--build-only` (npm test's pretest) stops here.
if (!process.argv.includes('--build-only')) await import(serverEntry);

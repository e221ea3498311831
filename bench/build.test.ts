/**
 * The server build the bench (and `npm start`) runs is rebuilt when older than its sources, once,
 * however many processes ask at the same time (scripts/build.mjs). On a throwaway tree with a fake
 * build command, so the repository's own build is never touched.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildServerIfStale } from '../scripts/build.mjs';
import { REPO_ROOT } from './targets.js';

// Takes its time, so that processes asking meanwhile find the build in progress.
const FAKE_BUILD = `
const fs = require('node:fs');
setTimeout(() => {
  fs.appendFileSync('builds.log', 'built\\n');
  fs.mkdirSync('dist/server', { recursive: true });
  fs.writeFileSync('dist/server/main.js', '');
}, 400);
`;

describe('the server build', () => {
  let dir: string;
  const builds = () => (fs.existsSync(path.join(dir, 'builds.log')) ? fs.readFileSync(path.join(dir, 'builds.log'), 'utf8').split('\n').filter(Boolean).length : 0);
  const options = () => ({ dir, command: 'node fake-build.cjs' });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-build-'));
    fs.mkdirSync(path.join(dir, 'server'));
    fs.mkdirSync(path.join(dir, 'protocol'));
    fs.writeFileSync(path.join(dir, 'server', 'main.ts'), '');
    fs.writeFileSync(path.join(dir, 'fake-build.cjs'), FAKE_BUILD);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is built once when three processes ask at the same time, and none returns before it is there', async () => {
    const script = `
      import fs from 'node:fs';
      import { buildServerIfStale } from ${JSON.stringify(path.join(REPO_ROOT, 'scripts', 'build.mjs'))};
      buildServerIfStale(() => {}, ${JSON.stringify(options())});
      process.stdout.write(String(fs.existsSync(${JSON.stringify(path.join(dir, 'dist', 'server', 'main.js'))})));
    `;
    const ask = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exited with ${code}`))));
      });
    expect(await Promise.all([ask(), ask(), ask()])).toEqual(['true', 'true', 'true']);
    expect(builds()).toBe(1);
    expect(fs.existsSync(path.join(dir, 'dist', '.server-build-lock'))).toBe(false);
  });

  it('is built again only once a source is newer than the build', () => {
    buildServerIfStale(() => {}, options());
    buildServerIfStale(() => {}, options());
    expect(builds()).toBe(1);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(dir, 'server', 'main.ts'), later, later);
    buildServerIfStale(() => {}, options());
    expect(builds()).toBe(2);
  });

  it('does not wait for a lock a build that died left behind long ago', () => {
    fs.mkdirSync(path.join(dir, 'dist', '.server-build-lock'), { recursive: true });
    const longAgo = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(path.join(dir, 'dist', '.server-build-lock'), longAgo, longAgo);
    buildServerIfStale(() => {}, options());
    expect(builds()).toBe(1);
  });
});

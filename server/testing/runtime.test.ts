import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The suites run on the Node.js the project pins (package.json's `node` dependency), not on the
 * machine's. npm install runs on the machine's Node.js and its engines warnings are off (.npmrc),
 * so the engines are checked here, against the runtime that really runs the code.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

interface LockEntry {
  name?: string;
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}
const pkg = readJson('package.json') as { dependencies: Record<string, string>; engines: { node: string } };
const lock = readJson('package-lock.json') as { packages: Record<string, LockEntry> };
const pinned = pkg.dependencies.node;

describe('the runtime the suites run on', () => {
  it('is the Node.js that package.json pins, as locked and installed', () => {
    expect(semver.valid(pinned), 'package.json pins one exact version of the node package').toBe(pinned);
    expect(lock.packages['node_modules/node']?.version).toBe(pinned);
    expect(readJson('node_modules/node/package.json').version).toBe(pinned);
    expect(process.version).toBe(`v${pinned}`);
    expect(fs.realpathSync(process.execPath)).toBe(fs.realpathSync(path.join(ROOT, 'node_modules', '.bin', 'node')));
  });

  it('is the `node` that child processes started by name get', () => {
    expect(execFileSync('node', ['--version'], { encoding: 'utf8' }).trim()).toBe(process.version);
  });

  it('satisfies the engines of the project and of every installed package', () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
    // As npm does: optional packages that do not fit are left out rather than warned about.
    const misfits = Object.entries(lock.packages)
      .filter(([, entry]) => !entry.optional && !Array.isArray(entry.engines) && entry.engines?.node)
      .filter(([, entry]) => !semver.satisfies(process.version, (entry.engines as { node: string }).node, { includePrerelease: true }))
      .map(([where, entry]) => `${where || 'marquee'}@${entry.version}: node ${(entry.engines as { node: string }).node}`);
    expect(misfits).toEqual([]);
  });
});

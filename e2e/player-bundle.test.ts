import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BUILT_WEB_DIR as WEB_DIR } from './game-support.js';

/**
 * The phone's page must load fast on a crowded cinema Wi-Fi: the player routes pull in at most
 * 150 KB of gzipped JavaScript and none of the admin code, the uploader, the data-fetching
 * library or the QR code renderer. Checked on the built app (`dist/web`, `npx vite build`) by
 * following the imports from index.html and the two lazily loaded player pages.
 */
const PLAYER_JS_BUDGET_BYTES = 150 * 1024;
const PLAYER_PAGES = ['PlayerJoinPage', 'PlayerGamePage'];
const FORBIDDEN_CHUNKS = ['AdminPage', 'LoginPage', 'UppyUploader', 'DisplayPage'];
const FORBIDDEN_TEXT = [/uppy/i, /QueryClient/, /toSJIS|Kanji/];

const read = (file: string) => fs.readFileSync(path.join(WEB_DIR, file), 'utf8');

/** Static imports of a built chunk: `from"./x.js"` and bare `import"./x.js"`. */
function staticImports(file: string): string[] {
  const dir = path.posix.dirname(file);
  const found = new Set<string>();
  for (const match of read(file).matchAll(/(?:\bfrom|\bimport)\s*["'](\.\.?\/[^"']+\.js)["']/g)) {
    found.add(path.posix.normalize(path.posix.join(dir, match[1])));
  }
  return [...found];
}

function closure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

function playerRouteFiles(): string[] {
  const html = read('index.html');
  const entries = [...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"|<link rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map((m) => m[1] ?? m[2]);
  const assets = fs.readdirSync(path.join(WEB_DIR, 'assets'));
  const pages = PLAYER_PAGES.map((name) => {
    const file = assets.find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'));
    if (!file) throw new Error(`no ${name} chunk in ${WEB_DIR}/assets: build the web app first (npx vite build)`);
    return `assets/${file}`;
  });
  return [...closure([...entries, ...pages])];
}

describe('player bundle (built app)', () => {
  const files = playerRouteFiles();

  it('stays within 150 KB of gzipped JavaScript', () => {
    const gzipped = files.reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(WEB_DIR, file))).length, 0);
    expect(files.length).toBeGreaterThan(3);
    expect(gzipped).toBeLessThanOrEqual(PLAYER_JS_BUDGET_BYTES);
  });

  it('loads no admin, uploader, react-query or QR code', () => {
    const names = files.map((file) => path.posix.basename(file));
    for (const chunk of FORBIDDEN_CHUNKS) expect(names.filter((name) => name.startsWith(`${chunk}-`))).toEqual([]);
    for (const file of files) {
      const text = read(file);
      for (const pattern of FORBIDDEN_TEXT) expect(pattern.test(text), `${file} matches ${pattern}`).toBe(false);
    }
  });
});

/**
 * Keeps the layer rules of .dependency-cruiser.cjs honest: a small tree written to a temporary
 * folder, with one wrong-way import per rule, must be reported rule by rule, and the same tree
 * without them must pass. (`npm run lint` runs the same rules over the real tree.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] };

const CLEAN: Record<string, string> = {
  'protocol/index.ts': 'export type Message = { type: string };\n',
  'server/errors.ts': 'export class DomainError extends Error {}\n',
  'server/game/engine/reduce.ts': "import type { Message } from '../../protocol/index.js';\nexport const reduce = (m: Message) => m;\n",
  'server/game/rooms/room.ts': "import { reduce } from '../engine/reduce.js';\nexport const room = reduce;\n",
  'server/storage/sessions.ts': "import type { Message } from '../../protocol/index.js';\nexport const rows: Message[] = [];\n",
  'server/domain/sessions/lifecycle.ts':
    "import { DomainError } from '../errors.js';\nimport { rows } from '../storage/sessions.js';\nexport const start = () => { if (!rows) throw new DomainError(); };\n",
  'server/transport/http/errors.ts': "import { DomainError } from '../errors.js';\nexport const statusOf = (e: DomainError) => (e ? 400 : 500);\n",
  'server/transport/http/sessions.ts': "import { start } from '../sessions/lifecycle.js';\nimport { room } from '../rooms/room.js';\nexport const route = [start, room];\n",
  'server/transport/ws/testing/client.ts': "import type { Message } from '../../../protocol/index.js';\nexport const sent: Message[] = [];\n",
  'server/transport/ws/game.test.ts': "import { sent } from './testing/client.js';\nimport { route } from '../http/sessions.js';\nexport const t = [sent, route];\n",
  'web/player/App.tsx': "import type { Message } from '../../protocol/index.js';\nexport const last: Message | null = null;\n",
};

/** Each wrong-way import, the file that makes it, and the rule that must name it. */
const WRONG: { rule: string; file: string; source: string; alsoWrites?: Record<string, string> }[] = [
  { rule: 'engine-is-pure', file: 'server/game/engine/clock.ts', source: "import fs from 'node:fs';\nexport const f = fs;\n" },
  { rule: 'engine-no-io-packages', file: 'server/game/engine/persist.ts', source: "import { sql } from 'kysely';\nexport const q = sql;\n" },
  { rule: 'engine-stays-in-engine', file: 'server/game/engine/load.ts', source: "import { rows } from '../storage/sessions.js';\nexport const r = rows;\n" },
  { rule: 'storage-below-game-and-transport', file: 'server/storage/live.ts', source: "import { room } from '../rooms/room.js';\nexport const r = room;\n" },
  { rule: 'domain-below-transport', file: 'server/domain/sessions/status.ts', source: "import { statusOf } from '../http/errors.js';\nexport const s = statusOf;\n" },
  { rule: 'game-below-transport', file: 'server/game/rooms/push.ts', source: "import { route } from '../http/sessions.js';\nexport const r = route;\n" },
  { rule: 'no-test-helpers-in-production', file: 'server/transport/ws/hub.ts', source: "import { sent } from './testing/client.js';\nexport const s = sent;\n" },
  { rule: 'web-sees-only-protocol', file: 'web/player/limits.ts', source: "import { DomainError } from '../../server/errors.js';\nexport const e = DomainError;\n" },
  { rule: 'protocol-is-the-bottom', file: 'protocol/views.ts', source: "import { last } from '../web/player/App.tsx';\nexport const v = last;\n" },
  {
    rule: 'no-circular',
    file: 'server/game/rooms/a.ts',
    source: "import type { B } from './b.js';\nexport type A = { b?: B };\n",
    alsoWrites: { 'server/game/rooms/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n" },
  },
];

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

async function violationsIn(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-layers-'));
  made.push(dir);
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), source);
  }
  const result = await cruise(['protocol', 'server', 'web'], {
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

describe('the layer rules (.dependency-cruiser.cjs)', () => {
  it('let a tree whose imports point down pass', async () => {
    expect(await violationsIn(CLEAN)).toEqual([]);
  });

  it('report every wrong-way import by its rule', async () => {
    const files = { ...CLEAN };
    for (const wrong of WRONG) Object.assign(files, { [wrong.file]: wrong.source }, wrong.alsoWrites);
    const violations = await violationsIn(files);
    expect(violations).toHaveLength(WRONG.length);
    for (const wrong of WRONG) {
      expect(violations, `${wrong.file} should break ${wrong.rule}`).toContainEqual(expect.objectContaining({ rule: wrong.rule, from: wrong.file }));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_MAJOR, nodeVersionProblem } from './node-version.js';

describe('the Node.js version check at start', () => {
  it('lets the version npm install brings, and newer ones, start', () => {
    expect(nodeVersionProblem(process.versions.node)).toBeNull();
    expect(nodeVersionProblem(`${MINIMUM_NODE_MAJOR}.0.0`)).toBeNull();
    expect(nodeVersionProblem('26.1.0')).toBeNull();
  });

  it('tells the operator that an older Node.js will not do, and how to start instead', () => {
    expect(nodeVersionProblem('20.20.2')).toBe(
      'Marquee needs Node.js 24 or newer; this is Node.js 20.20.2. Start it with `npm start`, which runs the Node.js that `npm install` brought.',
    );
    expect(nodeVersionProblem('23.11.1')).toContain('this is Node.js 23.11.1');
  });
});

describe('the version the check asks for', () => {
  it("is the one package.json's engines name", async () => {
    const { default: pkg } = await import('../package.json', { with: { type: 'json' } });
    expect(pkg.engines.node).toBe(`>=${MINIMUM_NODE_MAJOR}.0.0`);
  });
});

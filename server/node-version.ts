/**
 * Marquee runs on the Node.js that `npm install` brings (package.json's `node` dependency, which
 * `npm start` and `npm test` put first on the PATH). Started by hand on an older one (`node
 * dist/server/main.js` with a machine's Node 20) it died deep in its start with a segmentation
 * fault and no word on why. Imported first by main.ts, so it runs before any other module.
 */

/** The oldest major version Marquee runs on: package.json's `engines`. */
export const MINIMUM_NODE_MAJOR = 24;

/** What to tell the operator when `version` (as in `process.versions.node`) is too old; null when it will do. */
export function nodeVersionProblem(version: string): string | null {
  const major = Number.parseInt(version, 10);
  if (Number.isInteger(major) && major >= MINIMUM_NODE_MAJOR) return null;
  return (
    `Marquee needs Node.js ${MINIMUM_NODE_MAJOR} or newer; this is Node.js ${version}. ` +
    'Start it with `npm start`, which runs the Node.js that `npm install` brought.'
  );
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}

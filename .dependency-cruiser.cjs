/**
 * Marquee's layer rules as code (docs/ARCHITECTURE.md, "Layers"): `npm run lint` fails on an
 * import that points the wrong way. Layers, top to bottom:
 *   transport  server/{http,ws,cluster}
 *   domain     server/{sessions,questions,showtimes,draws,demo,results,files,auth,players,media}
 *   game       server/rooms -> server/engine (pure)
 *   storage    server/storage
 *   bottom     server/errors.ts, protocol/
 * server.ts and main.ts wire everything; ops/ (logging, metrics, backup) sits beside them.
 * Tests (*.test.ts) and testing/ folders may reach anything; production code may not reach them.
 */
const TRANSPORT = '^server/(http|ws|cluster)/';
const DOMAIN = '^server/(sessions|questions|showtimes|draws|demo|results|files|auth|players|media)/';
const TEST_CODE = '(^|/)testing/|\\.test\\.tsx?$';
const IO_PACKAGES = '(^|/node_modules/)(ws|pg|pg-[^/]+|better-sqlite3|ioredis|fastify|@fastify/[^/]+|kysely)(/|$)';


module.exports = {
  forbidden: [
    {
      name: 'engine-is-pure',
      comment: 'The engine is a pure state machine: no node:* modules, no I/O packages, no other server/ folder.',
      severity: 'error',
      from: { path: '^server/game/engine/', pathNot: TEST_CODE },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'engine-no-io-packages',
      comment: 'The engine takes no socket, database, Redis or HTTP library.',
      severity: 'error',
      from: { path: '^server/game/engine/', pathNot: TEST_CODE },
      to: { path: IO_PACKAGES },
    },
    {
      name: 'engine-stays-in-engine',
      comment: 'The engine sees only itself and protocol/ (server/errors.ts included: it throws nothing).',
      severity: 'error',
      from: { path: '^server/game/engine/', pathNot: TEST_CODE },
      to: { path: '^server/', pathNot: '^server/game/engine/' },
    },
    {
      name: 'storage-below-game-and-transport',
      comment: 'Storage is below the game and the transports: it knows rows, not rooms or requests.',
      severity: 'error',
      from: { path: '^server/storage/', pathNot: TEST_CODE },
      to: { path: ['^server/(engine|rooms)/', TRANSPORT] },
    },
    {
      name: 'domain-below-transport',
      comment: 'Domain services throw DomainError (server/errors.ts) and never import http/, ws/ or cluster/.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: TEST_CODE },
      to: { path: TRANSPORT },
    },
    {
      name: 'game-below-transport',
      comment: 'Rooms and the engine are driven through seams (broadcaster, dispatch); they import no transport.',
      severity: 'error',
      from: { path: '^server/(engine|rooms)/', pathNot: TEST_CODE },
      to: { path: TRANSPORT },
    },
    {
      name: 'protocol-is-the-bottom',
      comment: 'protocol/ is shared by server and web: it imports neither.',
      severity: 'error',
      from: { path: '^protocol/' },
      to: { path: '^(server|web)/' },
    },
    {
      name: 'no-test-helpers-in-production',
      comment: 'Test helpers live in testing/ folders and only tests (or other helpers) import them.',
      severity: 'error',
      from: { pathNot: `${TEST_CODE}|^(bench|e2e)/|\\.config\\.ts$` },
      to: { path: TEST_CODE },
    },
    {
      name: 'web-sees-only-protocol',
      comment: 'The web app shares only protocol/ with the server side.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(server|bench|e2e|scripts)/' },
    },
    {
      name: 'no-circular',
      comment: 'Imports form no circle (type-only imports included): one module must be the lower one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|coverage|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

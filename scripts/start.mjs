// `npm start`: builds the server and the web app when the build is missing or older than the
// sources, then serves. Operators pull and start; nothing else to remember.
import { buildServerIfStale, buildWebIfStale, serverEntry } from './build.mjs';

buildServerIfStale();
buildWebIfStale();
// `--build-only` (npm test's pretest) stops here.
if (!process.argv.includes('--build-only')) await import(serverEntry);

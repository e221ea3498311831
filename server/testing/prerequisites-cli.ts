// `npm test`'s first step (pretest), before the build: prepares or reports what the suites need
// from the machine (prerequisites.ts), so a missing piece stops the run at once with one line.
import { PrerequisiteError, preparePrerequisites } from './prerequisites.js';

try {
  await preparePrerequisites();
} catch (err) {
  if (!(err instanceof PrerequisiteError)) throw err;
  console.error(err.message);
  process.exit(1);
}

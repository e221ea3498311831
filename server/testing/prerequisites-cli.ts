// `npm test`'s first step (pretest), before the build: prepares or reports what the suites need
// from the machine (prerequisites.ts), so a missing piece stops the run at once with one line.
import { prepareOrExit } from './prerequisites.js';

await prepareOrExit();

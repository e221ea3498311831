import { beforeEach } from 'vitest';
import { openPageLogs } from './page-log.js';

// Every test file: when a test fails while browser pages are open (a browser flow), what each page
// saw lately is printed with the failure (page-log.ts). Files without pages print nothing.
beforeEach((context) => {
  context.onTestFailed(() => {
    const logs = openPageLogs();
    if (logs.length > 0) console.error(`What the open pages saw before "${context.task.name}" failed:\n\n${logs.join('\n\n')}`);
  });
});

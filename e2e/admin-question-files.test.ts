import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { dialog, expectToast, openTab, texts } from './support/ui.js';

const HEADER = 'text,choice_a,choice_b,choice_c,choice_d,correct,points,time_limit_seconds,categories';

let h: WebHarness;
beforeAll(async () => {
  h = await startWebHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('question files on the Questions tab', () => {
  it('previews an import with errors by line, then imports a good file and exports it again', { timeout: 90_000 }, async () => {
    await h.api.createQuestion({ text: 'Already in the bank?', choices: ['a', 'b', 'c', 'd'] });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await openTab(page, 'Questions');

    await page.getByRole('button', { name: 'Import' }).click();
    const importDialog = dialog(page, 'Import Questions');
    const confirm = importDialog.getByRole('button', { name: /^Import/ });
    expect(await confirm.isDisabled()).toBe(true);

    // A bad file: nothing can be imported, every problem has its line.
    const bad = [HEADER, 'Fine question,A,B,C,D,A,10,30,', 'Bad letter,A,B,C,D,E,10,30,', 'No points,A,B,C,D,B,0,30,'].join('\n');
    await importDialog.getByLabel('Question file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await importDialog.getByTestId('import-errors').waitFor();
    expect(await texts(importDialog.getByTestId('import-error'))).toEqual([
      '3 correct must be A, B, C or D (found "E")',
      '4 points must be a whole number from 1 to 100000',
    ]);
    expect(await confirm.isDisabled()).toBe(true);

    const good = [HEADER, '"Who said ""Here\'s looking at you, kid""?",Rick,Ilsa,Sam,Louis,A,20,25,Classics|Quotes', 'already in the BANK?,a,b,c,d,A,10,30,', 'Which year did Jaws open?,1975,1977,1973,1979,A,10,30,'].join('\r\n');
    await importDialog.getByLabel('Question file').setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    const preview = importDialog.getByTestId('import-preview');
    await preview.getByText('2 new questions, 1 duplicate skipped').waitFor();
    await preview.getByText('Who said "Here\'s looking at you, kid"?').waitFor();
    // The preview stored nothing.
    expect((await h.api.request<unknown[]>('GET', '/api/admin/questions')).length).toBe(1);
    await importDialog.getByRole('button', { name: 'Import 2 questions' }).click();
    await expectToast(page, '2 questions imported');
    await page.getByText('Which year did Jaws open?').waitFor();
    expect((await h.api.request<unknown[]>('GET', '/api/admin/questions')).length).toBe(3);

    // Export: the file downloads with the bank in it, quotes and categories intact.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('marquee-questions.csv');
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    expect(csv).toContain('"Who said ""Here\'s looking at you, kid""?",Rick,Ilsa,Sam,Louis,A,20,25,Classics|Quotes\r\n');
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { useAdminServer } from '../../../testing/hooks.js';

const HEADER = 'text,choice_a,choice_b,choice_c,choice_d,correct,points,time_limit_seconds,categories';
const FIELDS = ['text', 'choices', 'correctIndex', 'points', 'timeLimitSeconds', 'categories'] as const;

type Bank = Record<(typeof FIELDS)[number], unknown>[];

// Texts a spreadsheet or a naive CSV writer would get wrong.
const HOSTILE = [
  { text: 'He said "Play it, Sam" — or did he?', choices: ['Yes', 'No, "Play it"', 'Never, ever', 'a,b,c'], correctIndex: 1, points: 15, timeLimitSeconds: 20, categories: ['Quotes', 'Classics'] },
  { text: 'Line one\nline two\r\nline three', choices: ['🎬 clapper', '🍿', 'naïve café', '日本映画'], correctIndex: 3, points: 1, timeLimitSeconds: 5, categories: [] },
  { text: '=HYPERLINK("http://evil.example","click")', choices: ['+1', '-1', '@home', "'=already"], correctIndex: 0, points: 100000, timeLimitSeconds: 3600, categories: ['=SUM(A1)', 'Sci-Fi'] },
  { text: "'Tis the season: which film?", choices: ["'Elf'", "''double", 'Home Alone', 'Die Hard'], correctIndex: 2, points: 10, timeLimitSeconds: 30, categories: ["'quoted", 'with space'] },
];

describe.each(DIALECTS)('question import and export on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  useAdminServer(dialect, (s, a) => {
    server = s;
    api = a;
  });

  async function upload(body: string | Buffer, query: string, contentType = 'text/csv') {
    const res = await server.server.app.inject({
      method: 'POST',
      url: `/api/admin/questions/import?${query}`,
      headers: { authorization: `Bearer ${api.token}`, 'content-type': contentType },
      payload: body,
    });
    return { status: res.statusCode, body: res.json() };
  }
  const importCsv = (body: string | Buffer, dryRun = false) => upload(body, `format=csv&dryRun=${dryRun}`);
  const importJson = (body: string, dryRun = false) => upload(body, `format=json&dryRun=${dryRun}`, 'application/json');
  async function exportBank(format: 'csv' | 'json') {
    const res = await server.server.app.inject({ method: 'GET', url: `/api/admin/questions/export?format=${format}`, headers: { authorization: `Bearer ${api.token}` } });
    expect(res.statusCode).toBe(200);
    return res;
  }
  async function bank(): Promise<Bank> {
    const list = (await api.get('/api/admin/questions')).body as Record<string, unknown>[];
    return list.map((q) => Object.fromEntries(FIELDS.map((f) => [f, q[f]]))) as Bank;
  }
  async function clearBank() {
    for (const q of (await api.get('/api/admin/questions')).body as { id: string }[]) await api.delete(`/api/admin/questions/${q.id}`);
  }
  const row = (cells: string[]) => cells.join(',');
  const good = (text: string, extra: Partial<Record<'correct' | 'points' | 'time' | 'categories', string>> = {}) =>
    row([text, 'A', 'B', 'C', 'D', extra.correct ?? 'A', extra.points ?? '10', extra.time ?? '30', extra.categories ?? '']);

  beforeEach(clearBank);

  it('exports CSV and JSON that import back exactly, hostile text included', async () => {
    for (const q of HOSTILE) expect((await api.post('/api/admin/questions', { ...q, mediaId: null })).status).toBe(201);
    const original = await bank();
    expect(original).toEqual(HOSTILE);

    const csv = await exportBank('csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="marquee-questions.csv"');
    expect(csv.body.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    // Formula cells are neutralised for spreadsheets, and only those.
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csv.body).toContain(",'+1,'-1,'@home,''=already,");
    expect(csv.body).toContain("\r\n'Tis the season: which film?,");

    const json = await exportBank('json');
    expect(json.headers['content-disposition']).toBe('attachment; filename="marquee-questions.json"');
    expect(JSON.parse(json.body)).toEqual(HOSTILE);

    await clearBank();
    expect(await importCsv(csv.rawPayload)).toEqual({ status: 200, body: { imported: 4, skipped: 0 } });
    expect(await bank()).toEqual(original);
    // And once more through the CSV just written: byte for byte the same file.
    expect((await exportBank('csv')).body).toBe(csv.body);

    await clearBank();
    expect(await importJson(json.body)).toEqual({ status: 200, body: { imported: 4, skipped: 0 } });
    expect(await bank()).toEqual(original);
  });

  it('previews on a dry run without storing, then imports, skipping duplicates from the bank and the file', async () => {
    await api.post('/api/admin/questions', { ...HOSTILE[0], text: 'Already in the bank', mediaId: null });
    const file = [HEADER, good('New one'), good('  already IN the bank '), good('Another', { categories: 'A| B |A' }), good('new ONE')].join('\n');
    const preview = await importCsv(file, true);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      imported: 2,
      skipped: 2,
      questions: [
        { text: 'New one', choices: ['A', 'B', 'C', 'D'], correctIndex: 0, points: 10, timeLimitSeconds: 30, categories: [] },
        { text: 'Another', choices: ['A', 'B', 'C', 'D'], correctIndex: 0, points: 10, timeLimitSeconds: 30, categories: ['A', 'B'] },
      ],
    });
    expect((await bank()).map((q) => q.text)).toEqual(['Already in the bank']);

    expect(await importCsv(file)).toEqual({ status: 200, body: { imported: 2, skipped: 2 } });
    expect((await bank()).map((q) => q.text)).toEqual(['Already in the bank', 'New one', 'Another']);
    // Importing the same file again adds nothing.
    expect(await importCsv(file)).toEqual({ status: 200, body: { imported: 0, skipped: 4 } });
  });

  it('takes columns in any order, without the optional ones, with a byte-order mark and CRLF', async () => {
    const file = '\uFEFFcorrect,text,choice_d,choice_c,choice_b,choice_a\r\nb,"Which, really?",d,c,b,a\r\n';
    expect(await importCsv(file)).toEqual({ status: 200, body: { imported: 1, skipped: 0 } });
    expect(await bank()).toEqual([{ text: 'Which, really?', choices: ['a', 'b', 'c', 'd'], correctIndex: 1, points: 10, timeLimitSeconds: 30, categories: [] }]);
  });

  async function expectRefused(result: { status: number; body: any }, message: RegExp, errors?: { line: number; message: RegExp }[]) {
    expect(result.status, JSON.stringify(result.body)).toBe(400);
    expect(result.body.message).toMatch(message);
    if (errors) {
      expect(result.body.errors).toHaveLength(errors.length);
      errors.forEach((e, i) => {
        expect(result.body.errors[i].line).toBe(e.line);
        expect(result.body.errors[i].message).toMatch(e.message);
      });
    }
    expect(await bank()).toEqual([]);
  }

  it('refuses each bad CSV with line-numbered, plain messages and stores nothing', async () => {
    await expectRefused(await importCsv(Buffer.from(`${HEADER}\n${good('Caf\u00e9 question')}\n`, 'latin1')), /not UTF-8.*CSV UTF-8/);
    await expectRefused(await importCsv(`text,choice_a,choice_b,choice_c,correct\n${row(['Q', 'a', 'b', 'c', 'A'])}`), /Missing column: choice_d/, [
      { line: 1, message: /Missing column: choice_d/ },
    ]);
    await expectRefused(await importCsv(`${HEADER},choice_e\n${good('Q')},E`), /exactly 4 choices/, [{ line: 1, message: /choice_e.*exactly 4 choices/ }]);
    await expectRefused(await importCsv(`${HEADER.replaceAll(',', ';')}\n${good('Q').replaceAll(',', ';')}`), /separated by semicolons; save it as comma-separated/);
    // Line 2 is fine, the question on lines 3–4 spans two lines, then the bad ones.
    const file = [HEADER, good('Fine'), good('"Two\nlines"', { correct: 'E' }), good('Zero points', { points: '0' }), '', good('After the gap', { time: 'soon' }), row(['Too', 'few']), good('Fine too')].join('\n');
    await expectRefused(await importCsv(file), /^Nothing was imported\. 5 problems in the file, the first on line 3: correct must be A, B, C or D \(found "E"\)$/, [
      { line: 3, message: /^correct must be A, B, C or D/ },
      { line: 5, message: /^points must be a whole number from 1 to 100000$/ },
      { line: 6, message: /^This line is empty/ },
      { line: 7, message: /^time_limit_seconds must be a whole number/ },
      { line: 8, message: /^This line has 2 cells but the header has 9/ },
    ]);
    await expectRefused(await importCsv(`${HEADER}\n${good('"Open quote')}\n${good('Next')}\n`), /Line 2: A double quote \("\) opens a cell here but is never closed/);
    await expectRefused(await importCsv(''), /The file is empty/);
  });

  it('ignores blank lines at the end of a file but not between questions', async () => {
    expect(await importCsv(`${HEADER}\r\n${good('Only')}\r\n\r\n,,,,,,,,\r\n`)).toEqual({ status: 200, body: { imported: 1, skipped: 0 } });
  });

  it('refuses bad JSON entries by their position', async () => {
    const valid = { text: 'Fine', choices: ['a', 'b', 'c', 'd'], correctIndex: 0 };
    await expectRefused(await importJson('{ "text": "not a list" }'), /must be an array of questions/);
    await expectRefused(await importJson('[{ "text": '), /not valid JSON/);
    await expectRefused(
      await importJson(JSON.stringify([valid, { ...valid, text: 'Five', choices: ['a', 'b', 'c', 'd', 'e'] }, { ...valid, text: 'Zero', points: 0 }, 'nope', { ...valid, text: 'Bar', categories: ['a|b'] }])),
      /4 problems/,
      [
        { line: 2, message: /exactly 4 choices/ },
        { line: 3, message: /points must be a whole number from 1/ },
        { line: 4, message: /not a question object/ },
        { line: 5, message: /must not contain "\|"/ },
      ],
    );
  });

  it('refuses more than 10,000 questions and files over 5 MB', async () => {
    const lines = Array.from({ length: 10_001 }, (_, i) => good(`Question ${i}`));
    await expectRefused(await importCsv([HEADER, ...lines].join('\n')), /10,001 questions; at most 10,000/);
    await expectRefused(await importJson(JSON.stringify(Array.from({ length: 10_001 }, () => ({})))), /10,001 questions; at most 10,000/);
    const big = await importCsv(`${HEADER}\n${good('x'.repeat(6 * 1024 * 1024))}`);
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ message: 'The file is larger than 5 MB. Split it into smaller files and import them one by one.' });
    expect(await bank()).toEqual([]);
  });

  it('checks format and dryRun, and needs an administrator', async () => {
    const bad = await upload(`${HEADER}\n${good('Q')}`, 'format=xlsx');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/format must be csv or json/);
    const anonymous = await server.server.app.inject({ method: 'POST', url: '/api/admin/questions/import?format=csv', payload: `${HEADER}\n${good('Q')}`, headers: { 'content-type': 'text/csv' } });
    expect(anonymous.statusCode).toBe(401);
    const anonymousExport = await server.server.app.inject({ method: 'GET', url: '/api/admin/questions/export?format=csv' });
    expect(anonymousExport.statusCode).toBe(401);
    expect(await bank()).toEqual([]);
  });

  it('serves a template that imports as it is', async () => {
    const res = await server.server.app.inject({ method: 'GET', url: '/api/admin/questions/template.csv', headers: { authorization: `Bearer ${api.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    expect(await importCsv(res.rawPayload)).toEqual({ status: 200, body: { imported: 1, skipped: 0 } });
  });
});

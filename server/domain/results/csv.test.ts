import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { attachment, csvStream, neutralise, type CsvRecord } from './csv.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('CSV export stream', () => {
  it('writes a BOM, the header and RFC 4180 records with CRLF', async () => {
    async function* pages(): AsyncGenerator<CsvRecord[]> {
      yield [[1, 'Ann "A", the\nfirst']];
      yield [[2, '🎬']];
    }
    let text = '';
    for await (const chunk of csvStream(['n', 'name'], pages(), (err) => { throw err; })) text += chunk;
    expect(text).toBe('\uFEFFn,name\r\n1,"Ann ""A"", the\nfirst"\r\n2,🎬\r\n');
    expect(parse(text.slice(1))).toEqual([['n', 'name'], ['1', 'Ann "A", the\nfirst'], ['2', '🎬']]);
  });

  it('reads the next page only when the reader has taken the earlier ones: a slow download holds a bounded amount', async () => {
    const PAGES = 200;
    const ROWS = 500;
    let produced = 0;
    async function* pages(): AsyncGenerator<CsvRecord[]> {
      for (let p = 0; p < PAGES; p++) {
        produced += ROWS;
        yield Array.from({ length: ROWS }, (_, i) => [p * ROWS + i, 'x'.repeat(40)]);
      }
    }
    let consumed = 0;
    let maxAhead = 0;
    let tail = '';
    // A slow reader: one chunk per turn of the event loop.
    for await (const chunk of csvStream(['n', 'text'], pages(), (err) => { throw err; })) {
      const lines = (tail + chunk).split('\r\n');
      tail = lines.pop()!;
      consumed += lines.length;
      maxAhead = Math.max(maxAhead, produced - consumed);
      await nextTurn();
    }
    expect(consumed).toBe(PAGES * ROWS + 1);
    // Never more than a few pages ahead of the reader (stream buffers), far from the 100,000 rows.
    expect(maxAhead).toBeLessThan(4 * ROWS);
  });

  it('neutralises cells a spreadsheet would run as formulas, and nothing else', () => {
    for (const cell of ['=1+1', '+44', '-3', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(cell)).toBe(`'${cell}`);
    for (const cell of ['Ann', "'quoted", ' =spaced', '1=1', '']) expect(neutralise(cell)).toBe(cell);
  });

  it('keeps the download name to safe characters', () => {
    expect(attachment('results-quiz-night.csv')).toBe('attachment; filename="results-quiz-night.csv"');
    expect(attachment('a"b\r\nc.csv')).toBe('attachment; filename="a-b-c.csv"');
  });
});

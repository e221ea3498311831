/**
 * CSV downloads of results (DESIGN §10): RFC 4180 quoting by csv-stringify, CRLF rows, UTF-8
 * with a byte-order mark (spreadsheets then read accents and emoji right), streamed from pages
 * of rows so a file of any length is written in bounded memory, with backpressure: a slow
 * download pauses the reading.
 */
import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';

// A spreadsheet runs a cell starting with one of these as a formula: a player who calls
// themselves `=HYPERLINK(...)` must not run it on the cinema manager's computer.
export const FORMULA_START = /^[=+\-@\t\r]/;

/** Text cells that would start a formula get a leading ' (shown as text by spreadsheets). */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export type CsvRecord = (string | number)[];

/**
 * The CSV as a stream: the header, then every record of every page. `onError` hears of a
 * failure after the response has begun (the download is cut short; it cannot become a 500).
 */
export function csvStream(header: readonly string[], pages: AsyncIterable<CsvRecord[]>, onError: (err: Error) => void): Readable {
  async function* records(): AsyncGenerator<CsvRecord> {
    yield [...header];
    for await (const page of pages) yield* page;
  }
  const out = stringify({ bom: true, record_delimiter: 'windows' });
  pipeline(Readable.from(records()), out, (err) => {
    if (err) onError(err);
  });
  return out;
}

/** `attachment; filename="…"`, the name kept to characters every browser and header accepts. */
export function attachment(filename: string): string {
  const safe = filename.replace(/[^A-Za-z0-9._ -]+/g, '-').replace(/-+/g, '-').trim() || 'export.csv';
  return `attachment; filename="${safe}"`;
}

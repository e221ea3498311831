/**
 * Reading an uploaded CSV file with the error quality operators get from every import (DESIGN
 * §11, §13): UTF-8 only, a known header, every bad row reported with its line in the file (the
 * header is line 1; a cell spanning several lines is reported at its first), and nothing stored
 * if anything is wrong. The question import and the showtime import both read through here.
 */
import { parse } from 'csv-parse/sync';
import { DomainError } from '../../errors.js';

/** A file with thousands of bad rows answers with the first ones; the message gives the total. */
export const IMPORT_MAX_REPORTED_ERRORS = 500;

export interface LineError {
  line: number;
  message: string;
}

export interface CsvSpec<C extends string> {
  columns: readonly C[];
  required: readonly C[];
  /** What one row is, in messages: "question", "showtime". */
  rowNoun: string;
  maxRows: number;
  /** The message when the file has more rows than `maxRows`. */
  tooManyRows(count: number): DomainError;
  /** A better word for an unknown header name than "Unknown column", when there is one. */
  explainUnknownColumn?(name: string): string | undefined;
}

/** One row of the right shape: where it stood, and its cells by column (undefined: no such column). */
export interface CsvRow<C extends string> {
  line: number;
  cell(column: C): string | undefined;
}

interface CsvRecord {
  record: string[];
  info: { bytes: number };
}

/**
 * Reads a whole file. Problems with the file as a whole (quotes, header, size) throw a 400 at once;
 * rows of the wrong shape come back in `errors`, so the caller adds its own checks of each row and
 * reports everything together with `throwIfInvalid`.
 */
export function readCsvTable<C extends string>(content: string, spec: CsvSpec<C>): { rows: CsvRow<C>[]; errors: LineError[] } {
  const headerLine = spec.columns.join(',');
  const bytes = Buffer.from(content.replace(/^\uFEFF/, ''), 'utf8');
  const lines = new LineCounter(bytes);
  let records: CsvRecord[];
  try {
    records = parse(bytes, { info: true, relax_column_count: true, skip_empty_lines: false }) as unknown as CsvRecord[];
  } catch (err) {
    throw quoteError(err, lines);
  }
  if (records.length === 0) throw invalidFile(`The file is empty. Its first line must be the header: ${headerLine}`);

  let start = 0;
  const located = records.map(({ record, info }) => {
    const line = lines.lineAt(start);
    start = info.bytes;
    return { line, cells: record };
  });
  const header = readHeader(located[0]!.cells, spec);
  const body = located.slice(1);
  // Blank lines at the very end are the file's ending, not rows.
  while (body.length > 0 && isBlank(body[body.length - 1]!.cells)) body.pop();
  if (body.length > spec.maxRows) throw spec.tooManyRows(body.length);

  const rows: CsvRow<C>[] = [];
  const errors: LineError[] = [];
  for (const { line, cells } of body) {
    if (isBlank(cells)) {
      errors.push({ line, message: `This line is empty. Remove empty lines between ${spec.rowNoun}s.` });
    } else if (cells.length !== header.count) {
      errors.push({
        line,
        message: `This line has ${cells.length} cells but the header has ${header.count}. A cell containing a comma must be in double quotes.`,
      });
    } else {
      rows.push({
        line,
        cell: (column) => {
          const i = header.index.get(column);
          return i === undefined ? undefined : cells[i];
        },
      });
    }
  }
  return { rows, errors };
}

/** Every problem at once, in file order, so the operator fixes the file in one go. */
export function throwIfInvalid(errors: LineError[], unit: 'line' | 'entry' = 'line'): void {
  if (errors.length > 0) throw invalidRows([...errors].sort((a, b) => a.line - b.line), unit);
}

function readHeader<C extends string>(cells: string[], spec: CsvSpec<C>): { index: Map<C, number>; count: number } {
  const headerLine = spec.columns.join(',');
  const names = cells.map((c) => c.trim().toLowerCase());
  if (names.length === 1 && /[;\t]/.test(cells[0]!)) {
    const separator = cells[0]!.includes(';') ? 'semicolons' : 'tabs';
    throw invalidFile(
      `The file is separated by ${separator}; save it as comma-separated CSV (in a spreadsheet: "CSV UTF-8 (comma delimited)").`,
      [{ line: 1, message: `The header is separated by ${separator}, not commas.` }],
    );
  }
  const index = new Map<C, number>();
  const errors: LineError[] = [];
  names.forEach((name, i) => {
    const explained = spec.explainUnknownColumn?.(name);
    if (explained) {
      errors.push({ line: 1, message: explained });
    } else if (!(spec.columns as readonly string[]).includes(name)) {
      errors.push({ line: 1, message: `Unknown column "${cells[i]}". The columns are: ${headerLine}` });
    } else if (index.has(name as C)) {
      errors.push({ line: 1, message: `Column ${name} appears twice.` });
    } else {
      index.set(name as C, i);
    }
  });
  for (const column of spec.required) {
    if (!index.has(column)) errors.push({ line: 1, message: `Missing column: ${column}. The header must be: ${headerLine}` });
  }
  if (errors.length > 0) throw invalidFile(`The header is not right: ${errors[0]!.message}`, errors);
  return { index, count: cells.length };
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === '');

function quoteError(err: unknown, lines: LineCounter) {
  const e = err as { code?: string; bytes_records?: number; lines?: number };
  const line = typeof e.bytes_records === 'number' ? lines.lineAt(e.bytes_records) : (e.lines ?? 1);
  const message =
    e.code === 'CSV_QUOTE_NOT_CLOSED'
      ? 'A double quote (") opens a cell here but is never closed.'
      : 'A double quote (") inside a cell must be doubled (""), and the cell must be in double quotes.';
  return invalidRows([{ line, message }], 'line');
}

/** Line numbers of byte offsets (CRLF, LF or CR each end one line). */
class LineCounter {
  private readonly breaks: number[] = [];

  constructor(bytes: Uint8Array) {
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) this.breaks.push(i);
    }
  }

  /** 1-based line of the byte at `offset`: one more than the line breaks before it. */
  lineAt(offset: number): number {
    let low = 0;
    let high = this.breaks.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.breaks[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }
}

/** The file's bytes as text: UTF-8 only (a byte-order mark is fine), anything else said plainly. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalidFile(
      'The file is not UTF-8 text. In your spreadsheet, save it as "CSV UTF-8 (comma delimited)" and try again.',
    );
  }
}

export function invalidFile(message: string, errors: LineError[] = []): DomainError {
  return DomainError.invalid(message, { errors });
}

/** Every row error at once, so the operator fixes the file in one go. */
export function invalidRows(errors: LineError[], unit: 'line' | 'entry'): DomainError {
  const count = errors.length;
  const first = errors[0]!;
  const where = unit === 'line' ? `Line ${first.line}` : `Entry ${first.line}`;
  const summary = count === 1 ? `1 problem in the file: ${where}: ${first.message}` : `${count} problems in the file, the first on ${where.toLowerCase()}: ${first.message}`;
  return invalidFile(`Nothing was imported. ${summary}`, errors.slice(0, IMPORT_MAX_REPORTED_ERRORS));
}

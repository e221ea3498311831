/**
 * The question bank as CSV (DESIGN §11): one question per row under the header
 * `text,choice_a,choice_b,choice_c,choice_d,correct,points,time_limit_seconds,categories`.
 * Reading reports every bad row with its line in the file (the header is line 1; a question whose
 * text spans several lines is reported at its first). Pure: text in, rows or an error out.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { FORMULA_START } from '../results/csv.js';
import {
  CATEGORY_SEPARATOR,
  checkQuestion,
  IMPORT_MAX_ROWS,
  invalidFile,
  invalidRows,
  tooManyRows,
  type ImportedQuestion,
  type ImportRow,
  type LineError,
} from './import-rules.js';

export const QUESTION_CSV_COLUMNS = [
  'text',
  'choice_a',
  'choice_b',
  'choice_c',
  'choice_d',
  'correct',
  'points',
  'time_limit_seconds',
  'categories',
] as const;
type Column = (typeof QUESTION_CSV_COLUMNS)[number];
const REQUIRED: Column[] = ['text', 'choice_a', 'choice_b', 'choice_c', 'choice_d', 'correct'];
const LETTERS = ['A', 'B', 'C', 'D'];
const HEADER_LINE = QUESTION_CSV_COLUMNS.join(',');

// A spreadsheet runs a cell starting with one of these (FORMULA_START) as a formula. The export
// prefixes such cells with ' (as DESIGN §10 does for results) and the import takes exactly that '
// off again, so the bank round-trips; a leading ' before anything else is the text's own and stays.
const ESCAPED_START = /^'[=+\-@\t\r']/;

export function protectCell(value: string): string {
  return FORMULA_START.test(value) || ESCAPED_START.test(value) ? `'${value}` : value;
}

export function unprotectCell(value: string): string {
  return ESCAPED_START.test(value) ? value.slice(1) : value;
}

/** The file a spreadsheet opens as UTF-8 (with a byte-order mark), rows separated by CRLF. */
export function questionsToCsv(questions: ImportedQuestion[]): string {
  const rows = questions.map((q) => [
    protectCell(q.text),
    ...q.choices.map(protectCell),
    LETTERS[q.correctIndex],
    q.points,
    q.timeLimitSeconds,
    protectCell(q.categories.join(CATEGORY_SEPARATOR)),
  ]);
  return '\uFEFF' + stringify([[...QUESTION_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' });
}

/** An example file for the "Download template" button. */
export function questionCsvTemplate(): string {
  return questionsToCsv([
    {
      text: 'In which city is the film "Casablanca" set?',
      choices: ['Casablanca', 'Tangier', 'Lisbon', 'Marrakesh'],
      correctIndex: 0,
      points: 10,
      timeLimitSeconds: 30,
      categories: ['Classics', 'Geography'],
    },
  ]);
}

interface CsvRecord {
  record: string[];
  info: { bytes: number };
}

/** Reads a whole file; throws a 400 AppError listing every problem, or returns every question. */
export function parseQuestionCsv(content: string): ImportRow[] {
  const bytes = Buffer.from(content.replace(/^\uFEFF/, ''), 'utf8');
  const lines = new LineCounter(bytes);
  let records: CsvRecord[];
  try {
    records = parse(bytes, { info: true, relax_column_count: true, skip_empty_lines: false }) as unknown as CsvRecord[];
  } catch (err) {
    throw quoteError(err, lines);
  }
  if (records.length === 0) throw invalidFile(`The file is empty. Its first line must be the header: ${HEADER_LINE}`);

  let start = 0;
  const located = records.map(({ record, info }) => {
    const line = lines.lineAt(start);
    start = info.bytes;
    return { line, cells: record };
  });
  const header = readHeader(located[0]!.cells);
  const body = located.slice(1);
  // Blank lines at the very end are the file's ending, not questions.
  while (body.length > 0 && isBlank(body[body.length - 1]!.cells)) body.pop();
  if (body.length > IMPORT_MAX_ROWS) throw tooManyRows(body.length);

  const rows: ImportRow[] = [];
  const errors: LineError[] = [];
  for (const { line, cells } of body) {
    if (isBlank(cells)) {
      errors.push({ line, message: 'This line is empty. Remove empty lines between questions.' });
      continue;
    }
    if (cells.length !== header.count) {
      errors.push({
        line,
        message: `This line has ${cells.length} cells but the header has ${header.count}. A cell containing a comma must be in double quotes.`,
      });
      continue;
    }
    const result = readRow(cells, header.index);
    if ('problems' in result) for (const message of result.problems) errors.push({ line, message });
    else rows.push({ line, question: result.question });
  }
  if (errors.length > 0) throw invalidRows(errors, 'line');
  return rows;
}

function readHeader(cells: string[]): { index: Map<Column, number>; count: number } {
  const names = cells.map((c) => c.trim().toLowerCase());
  if (names.length === 1 && /[;\t]/.test(cells[0]!)) {
    const separator = cells[0]!.includes(';') ? 'semicolons' : 'tabs';
    throw invalidFile(
      `The file is separated by ${separator}; save it as comma-separated CSV (in a spreadsheet: "CSV UTF-8 (comma delimited)").`,
      [{ line: 1, message: `The header is separated by ${separator}, not commas.` }],
    );
  }
  const index = new Map<Column, number>();
  const errors: LineError[] = [];
  names.forEach((name, i) => {
    if (/^choice_[e-z]$/.test(name)) {
      errors.push({ line: 1, message: `Column ${name}: a question has exactly 4 choices (choice_a to choice_d).` });
    } else if (!(QUESTION_CSV_COLUMNS as readonly string[]).includes(name)) {
      errors.push({ line: 1, message: `Unknown column "${cells[i]}". The columns are: ${HEADER_LINE}` });
    } else if (index.has(name as Column)) {
      errors.push({ line: 1, message: `Column ${name} appears twice.` });
    } else {
      index.set(name as Column, i);
    }
  });
  for (const column of REQUIRED) {
    if (!index.has(column)) errors.push({ line: 1, message: `Missing column: ${column}. The header must be: ${HEADER_LINE}` });
  }
  if (errors.length > 0) throw invalidFile(`The header is not right: ${errors[0]!.message}`, errors);
  return { index, count: cells.length };
}

function readRow(cells: string[], index: Map<Column, number>): { question: ImportedQuestion } | { problems: string[] } {
  const cell = (column: Column): string | undefined => {
    const i = index.get(column);
    return i === undefined ? undefined : cells[i];
  };
  const text = (column: Column) => unprotectCell(cell(column) ?? '');
  const problems: string[] = [];

  const letter = (cell('correct') ?? '').trim().toUpperCase();
  const correctIndex = LETTERS.indexOf(letter);
  if (correctIndex < 0) problems.push(`correct must be A, B, C or D (found "${cell('correct')}")`);

  const number = (column: Column): number | undefined => {
    const raw = (cell(column) ?? '').trim();
    if (raw === '') return undefined; // the default applies
    return /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  };
  const categories = text('categories').split(CATEGORY_SEPARATOR);
  const result = checkQuestion({
    text: text('text'),
    choices: [text('choice_a'), text('choice_b'), text('choice_c'), text('choice_d')],
    correctIndex: Math.max(correctIndex, 0),
    points: number('points'),
    timeLimitSeconds: number('time_limit_seconds'),
    categories,
  });
  if ('problems' in result) problems.push(...result.problems);
  return problems.length > 0 ? { problems } : result;
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

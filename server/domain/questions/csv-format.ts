/**
 * The question bank as CSV (DESIGN §11): one question per row under the header
 * `text,choice_a,choice_b,choice_c,choice_d,correct,points,time_limit_seconds,categories`.
 * Reading reports every bad row with its line in the file (the header is line 1; a question whose
 * text spans several lines is reported at its first). Pure: text in, rows or an error out.
 */
import { stringify } from 'csv-stringify/sync';
import { FORMULA_START } from '../results/csv.js';
import { readCsvTable, throwIfInvalid, type CsvRow, type CsvSpec } from '../files/csv-table.js';
import { CATEGORY_SEPARATOR, checkQuestion, IMPORT_MAX_ROWS, tooManyRows, type ImportedQuestion, type ImportRow } from './import-rules.js';

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

const CSV_SPEC: CsvSpec<Column> = {
  columns: QUESTION_CSV_COLUMNS,
  required: REQUIRED,
  rowNoun: 'question',
  maxRows: IMPORT_MAX_ROWS,
  tooManyRows,
  explainUnknownColumn: (name) => (/^choice_[e-z]$/.test(name) ? `Column ${name}: a question has exactly 4 choices (choice_a to choice_d).` : undefined),
};

/** Reads a whole file; throws a DomainError ('invalid') listing every problem, or returns every question. */
export function parseQuestionCsv(content: string): ImportRow[] {
  const { rows: table, errors } = readCsvTable(content, CSV_SPEC);
  const rows: ImportRow[] = [];
  for (const row of table) {
    const result = readRow(row);
    if ('problems' in result) for (const message of result.problems) errors.push({ line: row.line, message });
    else rows.push({ line: row.line, question: result.question });
  }
  throwIfInvalid(errors);
  return rows;
}

function readRow({ cell }: CsvRow<Column>): { question: ImportedQuestion } | { problems: string[] } {
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

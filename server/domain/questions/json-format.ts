/**
 * The question bank as JSON (DESIGN §11): an array of
 * `{ text, choices: [4], correctIndex, points, timeLimitSeconds, categories }`. Errors name the
 * entry's 1-based position. Other keys (an id, createdAt from another tool's dump) are ignored.
 */
import { invalidFile, invalidRows, type LineError } from '../files/csv-table.js';
import { checkQuestion, IMPORT_MAX_ROWS, tooManyRows, type ImportedQuestion, type ImportRow } from './import-rules.js';

export function questionsToJson(questions: ImportedQuestion[]): string {
  const entries = questions.map(({ text, choices, correctIndex, points, timeLimitSeconds, categories }) => ({
    text,
    choices,
    correctIndex,
    points,
    timeLimitSeconds,
    categories,
  }));
  return `${JSON.stringify(entries, null, 2)}\n`;
}

export function parseQuestionJson(content: string): ImportRow[] {
  let data: unknown;
  try {
    data = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw invalidFile(`The file is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(data)) throw invalidFile('The JSON file must be an array of questions: [ { "text": …, "choices": […] }, … ]');
  if (data.length > IMPORT_MAX_ROWS) throw tooManyRows(data.length);

  const rows: ImportRow[] = [];
  const errors: LineError[] = [];
  data.forEach((entry, i) => {
    const line = i + 1;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      errors.push({ line, message: 'This entry is not a question object.' });
      return;
    }
    const result = checkQuestion(entry);
    if ('problems' in result) for (const message of result.problems) errors.push({ line, message });
    else rows.push({ line, question: result.question });
  });
  if (errors.length > 0) throw invalidRows(errors, 'entry');
  return rows;
}

/**
 * What a question file may hold, whatever its format (DESIGN §11): the limits, the checks of one
 * question with messages an operator understands, and the duplicate rule. Pure: no I/O.
 */
import { z } from 'zod';
import type { ImportedQuestion } from '../../../protocol/api.js';
import type { DomainError } from '../../errors.js';
import { invalidFile } from '../files/csv-table.js';
import { QUESTION_LIMITS } from './limits.js';

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;

export type { ImportedQuestion };

/** One question read from a file, with where it stood (the CSV line, or the JSON entry's position). */
export interface ImportRow {
  line: number;
  question: ImportedQuestion;
}

export const CATEGORY_SEPARATOR = '|';

const { text, choice, points, timeLimitSeconds, category } = QUESTION_LIMITS;
const pointsMessage = `points must be a whole number from ${points.min} to ${points.max}`;
const timeMessage = `time_limit_seconds must be a whole number from ${timeLimitSeconds.min} to ${timeLimitSeconds.max}`;
const noNul = (v: string) => !v.includes('\0');

/** The same rules as the question form (QUESTION_LIMITS in ./limits.ts), worded for a file. */
export const importedQuestionSchema = z.object({
  text: z
    .string({ error: 'text is missing' })
    .trim()
    .min(1, 'text is empty')
    .max(text.max, `text is longer than ${text.max} characters`)
    .refine(noNul, 'text contains a NUL character'),
  choices: z
    .array(
      z
        .string({ error: 'every choice must be text' })
        .trim()
        .min(1, 'a choice is empty')
        .max(choice.max, `a choice is longer than ${choice.max} characters`)
        .refine(noNul, 'a choice contains a NUL character'),
      { error: 'choices must be a list of 4 texts' },
    )
    .length(4, 'a question has exactly 4 choices'),
  correctIndex: z.number({ error: 'correctIndex must be 0, 1, 2 or 3' }).int('correctIndex must be 0, 1, 2 or 3').min(0, 'correctIndex must be 0, 1, 2 or 3').max(3, 'correctIndex must be 0, 1, 2 or 3'),
  points: z.number({ error: pointsMessage }).int(pointsMessage).min(points.min, pointsMessage).max(points.max, pointsMessage).default(points.default),
  timeLimitSeconds: z
    .number({ error: timeMessage })
    .int(timeMessage)
    .min(timeLimitSeconds.min, timeMessage)
    .max(timeLimitSeconds.max, timeMessage)
    .default(timeLimitSeconds.default),
  categories: z
    .array(
      z
        .string({ error: 'every category must be text' })
        .max(category.max, `a category is longer than ${category.max} characters`)
        .refine((c) => !c.includes(CATEGORY_SEPARATOR), `a category must not contain "${CATEGORY_SEPARATOR}" (it separates categories)`)
        .refine(noNul, 'a category contains a NUL character'),
      { error: 'categories must be a list of texts' },
    )
    .max(category.maxCount, `a question has at most ${category.maxCount} categories`)
    .default([])
    .transform((list) => [...new Set(list.map((c) => c.trim()).filter((c) => c.length > 0))]),
});

/** Checks one candidate; the messages of every problem found, or the cleaned question. */
export function checkQuestion(candidate: unknown): { question: ImportedQuestion } | { problems: string[] } {
  const result = importedQuestionSchema.safeParse(candidate);
  if (result.success) return { question: result.data };
  return { problems: [...new Set(result.error.issues.map((issue) => issue.message))] };
}

/** The duplicate rule: same text ignoring case and surrounding spaces. */
export const textKey = (questionText: string): string => questionText.trim().toLowerCase();

export interface ImportPlan {
  fresh: ImportedQuestion[];
  skipped: number;
}

/** Keeps the first of each text, leaving out texts already in the bank. */
export function planImport(rows: ImportRow[], bankKeys: Set<string>): ImportPlan {
  const seen = new Set(bankKeys);
  const fresh: ImportedQuestion[] = [];
  for (const { question } of rows) {
    const key = textKey(question.text);
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push(question);
  }
  return { fresh, skipped: rows.length - fresh.length };
}

export function tooManyRows(count: number): DomainError {
  return invalidFile(
    `The file has ${count.toLocaleString('en-US')} questions; at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} can be imported at once. Split it into smaller files.`,
  );
}

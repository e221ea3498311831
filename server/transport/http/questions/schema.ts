import { z } from 'zod';
import { QUESTION_LIMITS } from '../../../domain/questions/limits.js';

const blank = 'Please fill in all fields';
// PostgreSQL text cannot hold NUL (U+0000): such a value would fail in the database with a 500,
// so it is refused here as bad input (SQLite would store it silently).
const noNul = (v: string) => !v.includes('\0');
const NUL_MESSAGE = 'must not contain NUL characters';

const L = QUESTION_LIMITS;

export const questionBody = z.object({
  text: z.string().trim().min(1, blank).max(L.text.max).refine(noNul, NUL_MESSAGE),
  choices: z.array(z.string().trim().min(1, blank).max(L.choice.max)).length(4, 'exactly four choices are required'),
  correctIndex: z.number().int().min(0).max(3).default(0),
  points: z.number().int('must be a whole number').min(L.points.min).max(L.points.max).default(L.points.default),
  timeLimitSeconds: z
    .number()
    .int('must be a whole number')
    .min(L.timeLimitSeconds.min)
    .max(L.timeLimitSeconds.max)
    .default(L.timeLimitSeconds.default),
  // Trimmed, blank ones dropped, duplicates removed (first spelling kept). "|" separates
  // categories in the CSV export, so a category holding one could not come back in one piece.
  categories: z
    .array(z.string().max(L.category.max).refine((c) => !c.includes('|'), 'must not contain "|"'))
    .max(L.category.maxCount)
    .default([])
    .transform((list) => [...new Set(list.map((c) => c.trim()).filter((c) => c.length > 0))]),
  mediaId: z.string().max(100).refine(noNul, NUL_MESSAGE).nullable().default(null),
});

const id = z.string().min(1).max(100).refine(noNul, NUL_MESSAGE);
export const listQuery = z.object({ sessionId: id.optional() });
export const questionIdParam = z.object({ id });

import { z } from 'zod';

const blank = 'Please fill in all fields';
// PostgreSQL text cannot hold NUL (U+0000): such a value would fail in the database with a 500,
// so it is refused here as bad input (SQLite would store it silently).
const noNul = (v: string) => !v.includes('\0');
const NUL_MESSAGE = 'must not contain NUL characters';

export const questionBody = z.object({
  text: z.string().trim().min(1, blank).max(1000).refine(noNul, NUL_MESSAGE),
  choices: z.array(z.string().trim().min(1, blank).max(300)).length(4, 'exactly four choices are required'),
  correctIndex: z.number().int().min(0).max(3).default(0),
  points: z.number().int('must be a whole number').min(1).max(100_000).default(10),
  timeLimitSeconds: z.number().int('must be a whole number').min(5).max(3600).default(30),
  // Trimmed, blank ones dropped, duplicates removed (first spelling kept).
  categories: z
    .array(z.string().max(100))
    .max(50)
    .default([])
    .transform((list) => [...new Set(list.map((c) => c.trim()).filter((c) => c.length > 0))]),
  mediaId: z.string().max(100).refine(noNul, NUL_MESSAGE).nullable().default(null),
});

const id = z.string().min(1).max(100).refine(noNul, NUL_MESSAGE);
export const listQuery = z.object({ sessionId: id.optional() });
export const questionIdParam = z.object({ id });

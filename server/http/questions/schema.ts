import { z } from 'zod';

const blank = 'Please fill in all fields';

export const questionBody = z.object({
  text: z.string().trim().min(1, blank).max(1000),
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
  mediaId: z.string().max(100).nullable().default(null),
});

export const listQuery = z.object({ sessionId: z.string().min(1).max(100).optional() });
export const questionIdParam = z.object({ id: z.string().min(1).max(100) });

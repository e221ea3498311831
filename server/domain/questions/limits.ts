/**
 * How long and how large a question may be: one rule for the question form
 * (server/transport/http/questions/schema.ts) and the file import (./import-rules.ts).
 */
export const QUESTION_LIMITS = {
  text: { max: 1000 },
  choice: { max: 300 },
  points: { min: 1, max: 100_000, default: 10 },
  timeLimitSeconds: { min: 5, max: 3600, default: 30 },
  category: { max: 100, maxCount: 50 },
} as const;

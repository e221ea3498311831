import { z } from 'zod';

// PostgreSQL text cannot hold NUL (U+0000): such a value would fail in the database with a 500,
// so it is refused here as bad input (SQLite would store it silently).
const noNul = (v: string) => !v.includes('\0');
const NUL_MESSAGE = 'must not contain NUL characters';
const id = z.string().min(1).max(100).refine(noNul, NUL_MESSAGE);
export const sessionParam = z.object({ id });
export const questionParam = z.object({ id, questionId: id });
export const itemParam = z.object({ id, itemId: id });

export const directionBody = z.object({
  direction: z.enum(['up', 'down'], { message: "direction must be 'up' or 'down'" }),
});

export const addQuestionBody = z.object({
  questionId: id,
  orderIndex: z.number().int().min(0).max(1_000_000).optional(),
});

const mediaItemCount = z.number().int('must be a whole number').min(1).max(20);
export const createMediaBlockBody = z.object({ mediaItemCount: mediaItemCount.default(3) });
export const updateMediaBlockBody = z.object({ mediaItemCount });

export const DEFAULT_JOIN_SLIDE_TEXT = 'Scan to Join!';

export const createSlideBody = z
  .object({
    slideType: z.enum(['intro', 'rules', 'break', 'leaderboard', 'join']),
    slideData: z
      .object({ text: z.string().max(200).optional() })
      .nullable()
      .optional(),
  })
  .transform((body, ctx) => {
    const text = body.slideData?.text?.trim();
    if (body.slideType === 'join' && body.slideData?.text !== undefined && !text) {
      ctx.addIssue({ code: 'custom', path: ['slideData', 'text'], message: 'Slide text must not be blank' });
      return z.NEVER;
    }
    // A join slide always carries its text; others carry one only if given.
    const slideData = body.slideType === 'join' ? { text: text || DEFAULT_JOIN_SLIDE_TEXT } : text ? { text } : null;
    return { slideType: body.slideType, slideData };
  });

import { NICKNAME_MODES, type Theme as SharedTheme } from '../../../../protocol/api.js';
import { DEFAULT_MAX_PLAYERS } from '../../../storage/sessions.js';
import { z } from 'zod';

// PostgreSQL text cannot hold NUL (U+0000): such a value would fail in the database with a 500,
// so it is refused here as bad input (SQLite would store it silently).
const noNul = (v: string) => !v.includes('\0');
const NUL_MESSAGE = 'must not contain NUL characters';

export const idParam = z.object({ id: z.string().min(1).max(100).refine(noNul, NUL_MESSAGE) });

const hexOrCssColour = z
  .string()
  .trim()
  .max(64)
  .regex(/^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\)|[a-zA-Z]+)$/, 'must be a colour such as #E74C52');
const fontFamily = z.string().trim().max(200).regex(/^[^;{}<>]*$/, 'must be a font family list');
// Theme images are media paths from our uploader, or absolute http(s) URLs.
const imagePath = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || v.startsWith('/media/') || /^https?:\/\//i.test(v), 'must be a /media/… path or an http(s) URL');

// Absent stays undefined (unchanged on update); null or blank means "none".

/** SPEC §3 Theme: every field optional; unknown keys are dropped. */
export const themeSchema = z.object({
  primaryColor: hexOrCssColour.optional(),
  secondaryColor: hexOrCssColour.optional(),
  backgroundColor: hexOrCssColour.optional(),
  textColor: hexOrCssColour.optional(),
  successColor: hexOrCssColour.optional(),
  timerWarningColor: hexOrCssColour.optional(),
  primaryFont: fontFamily.optional(),
  secondaryFont: fontFamily.optional(),
  monoFont: fontFamily.optional(),
  questionTextSize: z.enum(['small', 'medium', 'large', 'xlarge']).optional(),
  questionFontWeight: z.enum(['normal', 'medium', 'semibold', 'bold', 'black']).optional(),
  backgroundOverlay: z.enum(['none', 'light', 'medium', 'dark']).optional(),
  backdropBlur: z.boolean().optional(),
  logo: imagePath.nullable().optional(),
  headerBackgroundImage: imagePath.nullable().optional(),
  mainBackgroundImage: imagePath.nullable().optional(),
});

/** The spec lets the theme travel as an object or as a JSON string. */
const themeInput = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}, themeSchema);

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .refine(noNul, NUL_MESSAGE)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim()));

// Only a full ISO-8601 date-time with a zone: Date.parse alone takes '1' as the year 2001 and rolls
// 30 February over into March, and a time without a zone would depend on the server's clock zone.
const isoDateTime = z.iso.datetime({ offset: true });
const startsAt = z
  .string()
  .nullable()
  .optional()
  .refine(
    (v) => v == null || v === '' || isoDateTime.safeParse(v).success,
    'must be an ISO-8601 date and time with a time zone, e.g. 2030-01-31T20:00:00Z',
  )
  .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : new Date(v).toISOString()));

const auditoriumId = z
  .string()
  .max(100)
  .refine(noNul, NUL_MESSAGE)
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : v));

const title = z.string().trim().min(1, 'Title is required').max(200).refine(noNul, NUL_MESSAGE);
const mediaItemsPerTransition = z.number().int('must be a whole number').min(1).max(10);

/** DESIGN §11: off by default; when on, players see the consent text (and the prize) at join. */
export const prizeDrawSchema = z
  .object({
    enabled: z.boolean(),
    prize: z.string().trim().max(200).refine(noNul, NUL_MESSAGE).default(''),
    consentText: z.string().trim().max(1000).refine(noNul, NUL_MESSAGE).default(''),
  })
  .refine((d) => !d.enabled || d.prize.length > 0, { message: 'say what can be won when the prize draw is on', path: ['prize'] })
  .refine((d) => !d.enabled || d.consentText.length > 0, {
    message: 'a consent text is required when the prize draw is on',
    path: ['consentText'],
  });

const maxPlayers = z.number().int('must be a whole number').min(1).max(100_000);
const nicknames = z.enum(NICKNAME_MODES);

export const createSessionBody = z.object({
  title,
  auditoriumId,
  startsAt,
  autoRotate: z.boolean().default(true),
  mediaItemsPerTransition: mediaItemsPerTransition.default(1),
  returnMessage: optionalText(500),
  theme: themeInput.optional(),
  prizeDraw: prizeDrawSchema.optional(),
  maxPlayers: maxPlayers.default(DEFAULT_MAX_PLAYERS),
  nicknames: nicknames.default('free'),
});

/** Either settings (any subset) or the theme alone, as the Theme Editor sends it. */
export const updateSessionBody = z.object({
  title: title.optional(),
  auditoriumId,
  startsAt,
  autoRotate: z.boolean().optional(),
  mediaItemsPerTransition: mediaItemsPerTransition.optional(),
  returnMessage: optionalText(500),
  theme: themeInput.optional(),
  prizeDraw: prizeDrawSchema.optional(),
  maxPlayers: maxPlayers.optional(),
  nicknames: nicknames.optional(),
});

// The validator and the shared Theme type must agree field for field.
export type Theme = z.infer<typeof themeSchema>;
const _themeShape: z.ZodType<SharedTheme> = themeSchema;
void _themeShape;

/**
 * Player names (DESIGN §15): what reaches a cinema's big screen. A name is first normalised
 * (NFKC; control, format, bidi and invisible characters removed; at most two combining marks per
 * letter; whitespace collapsed), then refused when nothing is left, when it is a web address,
 * when it reads as one of the host's own words (through lookalike letters too), or when it is
 * offensive (profanity.ts). The refusal names a reason; the phone tells the player what to do.
 */
import { foldForMatching, wordsOf } from './fold.js';
import { isOffensive, joinSpacedLetters } from './profanity.js';

export const NAME_MAX_LENGTH = 50;
export const NAME_REFUSED_MESSAGE = 'Please choose another name';

export type NameRefusal = 'offensive' | 'reserved' | 'link' | 'empty';
export type NameCheck = { ok: true; name: string } | { ok: false; reason: NameRefusal };

/** Words a player could use to pass for the venue or the operator: refused inside longer words too. */
const RESERVED_ANYWHERE = ['admin', 'moderator', 'official', 'marquee'];
/** Short ones only as whole words ("Ghost" and "Staffordshire" stay playable). */
const RESERVED_WORDS = new Set(['staff', 'host', 'mod', 'mods', 'admins', 'hosts']);

const MAX_MARKS_PER_LETTER = 2;
const ZWJ = '\u200d';
/**
 * Invisible characters that are not in the format category: Hangul fillers, the braille blank,
 * the combining grapheme joiner, variation-selector-free fillers of some fonts.
 */
const INVISIBLE = /[\u115f\u3164\uffa0\u2800\u180e]|\u1160|\u17b4|\u17b5|\u034f/gu;
/** Control (Cc), format (Cf: bidi controls, zero-width spaces and joiners, BOM...), line and paragraph separators. */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

/** A zero-width joiner between two pictographs builds one emoji (👩‍🚀): kept there, dropped elsewhere. */
function removeControlAndFormat(text: string): string {
  const chars = [...text];
  let out = '';
  chars.forEach((c, i) => {
    if (c === ZWJ) {
      const before = chars[i - 1];
      const after = chars[i + 1];
      if (before && after && PICTOGRAPH.test(before) && PICTOGRAPH.test(after)) out += c;
      return;
    }
    if (!c.match(CONTROL_OR_FORMAT)) out += c;
  });
  return out;
}

/** At most MAX_MARKS_PER_LETTER combining marks after each base character (Zalgo stacks cut down). */
function limitCombiningMarks(text: string): string {
  let out = '';
  let marks = 0;
  for (const c of text) {
    if (/\p{M}/u.test(c)) {
      if (++marks > MAX_MARKS_PER_LETTER) continue;
    } else {
      marks = 0;
    }
    out += c;
  }
  return out;
}

/** The name as it would be stored and shown; may be empty or longer than allowed. */
export function normaliseName(raw: string): string {
  const normalised = removeControlAndFormat(raw.normalize('NFKC')).replace(INVISIBLE, '');
  return limitCombiningMarks(normalised).replace(/\s+/gu, ' ').trim();
}

const URL_SCHEME = /\b(?:https?|ftp|www)\b|:\/\//i;
const TLD = '(?:com|net|org|info|biz|io|co|me|tv|gg|ly|app|dev|xyz|site|online|shop|link|club|live|top|uk|de|fr|es|it|nl|pt|be|ch|at|eu|us|ru|cn)';
/** "example.com", "example . com", "example dot com", "example(dot)com". */
const DOMAIN = new RegExp(`[\\p{L}\\p{N}-]+\\s*(?:\\.|\\(\\s*dot\\s*\\)|\\[\\s*dot\\s*\\]|\\sdot\\s)\\s*${TLD}\\b`, 'iu');

export function isLink(name: string): boolean {
  const folded = foldForMatching(name);
  return URL_SCHEME.test(folded) || DOMAIN.test(folded) || /\S@\S+\.\S/.test(folded);
}

export function isReserved(name: string): boolean {
  const words = wordsOf(foldForMatching(name));
  const candidates = [...words, ...joinSpacedLetters(words), words.join('')];
  return candidates.some((word) => RESERVED_WORDS.has(word) || RESERVED_ANYWHERE.some((reserved) => word.includes(reserved)));
}

export function checkName(raw: string): NameCheck {
  const name = normaliseName(raw);
  const length = [...name].length;
  if (length === 0) return { ok: false, reason: 'empty' };
  // Longer than allowed after normalising: cut at a character boundary rather than refuse.
  const fitted = length > NAME_MAX_LENGTH ? [...name].slice(0, NAME_MAX_LENGTH).join('').trim() : name;
  // A right-to-left override shows the letters reversed: what the screen shows is checked too.
  const readings = BIDI_CONTROL.test(raw) ? [fitted, [...fitted].reverse().join('')] : [fitted];
  if (readings.some(isLink)) return { ok: false, reason: 'link' };
  if (readings.some(isReserved)) return { ok: false, reason: 'reserved' };
  if (readings.some(isOffensive)) return { ok: false, reason: 'offensive' };
  return { ok: true, name: fitted };
}

/**
 * Is a (normalised) name offensive? Two well-kept sources, each for what it does best:
 * - `obscenity` with its English dataset and recommended transformers: English, with leetspeak,
 *   lookalike letters and repeated letters resolved, and its whitelist keeps "Scunthorpe" or
 *   "Cockburn" playable;
 * - `naughty-words` (the maintained List of Dirty, Naughty, Obscene and Otherwise Bad Words) for
 *   French, Spanish, German, Italian, Portuguese and Dutch, matched word by word after the same
 *   folding (lookalikes, accents, leetspeak), so a word inside a longer innocent one does not count.
 * Spacing tricks ("s h i t") are undone first by joining runs of single letters. Why these two:
 * docs/PRIVACY.md ("Player names").
 */
import { createRequire } from 'node:module';
import { type Node, RegExpMatcher, SyntaxKind, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { foldForMatching, wordsOf } from './fold.js';

const require = createRequire(import.meta.url);
const OTHER_LANGUAGES = ['fr', 'es', 'de', 'it', 'pt', 'nl'] as const;
/** List entries this long also count inside a longer word (short ones only as whole words). */
const MIN_EMBEDDED_LENGTH = 6;

const englishTerms = englishDataset.build();
const english = new RegExpMatcher({ ...englishTerms, ...englishRecommendedTransformers });

/**
 * Two readings of a name checked in ONE pass of the English matcher, joined by this: a pass costs
 * about the same however short the text (every term's expression runs over it: some 37 µs, most
 * of a registration's name check, issue 26). The terms' expressions are literals, optional parts
 * and `\b`; when no literal holds a character of the join, every wildcard is optional and no term
 * has as many wildcards as the join has characters, no match can take in the whole join, and one
 * that reaches into it matches without that part too (`\b` sees the join as it sees either end of
 * a text). So the verdict is that of two passes. Should a later dataset break that, the matcher
 * runs once per reading again.
 */
const JOIN = '\n\r\n';
const inJoin = (char: string) => JOIN.includes(char);
function joinSafe(nodes: readonly Node[]): boolean {
  let wildcards = 0;
  for (const node of nodes) {
    const inner = node.kind === SyntaxKind.Optional ? node.childNode : node;
    if (inner.kind === SyntaxKind.Wildcard) {
      if (node.kind !== SyntaxKind.Optional) return false;
      wildcards++;
    } else if (inner.chars.some((c) => inJoin(String.fromCodePoint(c)))) {
      return false;
    }
  }
  return wildcards < JOIN.length;
}
/** Exported for the tests: whether the current dataset allows the one pass. */
export const ENGLISH_ONE_PASS =
  englishTerms.blacklistedTerms.every((term) => joinSafe(term.pattern.nodes)) && !(englishTerms.whitelistedTerms ?? []).some((term) => [...term].some(inJoin));

/** Whether the English matcher finds anything in either reading. */
export function englishMatchesEither(first: string, second: string): boolean {
  return ENGLISH_ONE_PASS ? english.hasMatch(first + JOIN + second) : english.hasMatch(first) || english.hasMatch(second);
}

function loadLists(): { words: Set<string>; embedded: string[] } {
  const words = new Set<string>();
  for (const language of OTHER_LANGUAGES) {
    for (const entry of require(`naughty-words/${language}.json`) as string[]) {
      // Multi-word entries are matched with their spaces removed, like a name written without them.
      const folded = wordsOf(foldForMatching(entry)).join('');
      if (folded.length >= 3) words.add(folded);
    }
  }
  return { words, embedded: [...words].filter((w) => w.length >= MIN_EMBEDDED_LENGTH) };
}

const lists = loadLists();

/** "s h i t" → "shit": runs of two or more one-letter words joined, other words kept. */
export function joinSpacedLetters(words: readonly string[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const word of words) {
    if ([...word].length === 1) {
      run += word;
      continue;
    }
    if (run) out.push(run);
    run = '';
    out.push(word);
  }
  if (run) out.push(run);
  return out;
}

function inOtherLanguages(words: readonly string[]): boolean {
  const candidates = new Set([...words, ...joinSpacedLetters(words), words.join('')]);
  for (const candidate of candidates) {
    if (lists.words.has(candidate) || lists.words.has(candidate.replace(/(.)\1+/g, '$1'))) return true;
    if (candidate.length >= MIN_EMBEDDED_LENGTH && lists.embedded.some((w) => candidate.includes(w))) return true;
  }
  return false;
}

/** Numbers of two or more digits standing alone ("Bot 455", "Row 7117") are numbers, not leetspeak. */
const STANDALONE_NUMBER = /(?<![\p{L}\p{N}])\p{N}{2,}(?![\p{L}\p{N}])/gu;

export function isOffensive(typed: string): boolean {
  const name = typed.replace(STANDALONE_NUMBER, ' ');
  const words = wordsOf(foldForMatching(name));
  const spacedOut = joinSpacedLetters(words).join(' ');
  if (englishMatchesEither(name, spacedOut)) return true;
  return inOtherLanguages(words);
}

/**
 * Folding a name for matching only (never for display): lookalike letters to Latin ones
 * (`confusables`, so a Greek Alpha reads as an A), accents dropped, lower case, leetspeak digits
 * and symbols read as letters. Non-Latin scripts pass through unchanged.
 */
import { remove as removeConfusables } from 'confusables';

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '!': 'i', '|': 'l', '€': 'e' };

export function foldForMatching(text: string): string {
  return removeConfusables(text)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[0134578@$!|€]/g, (c) => LEET[c] ?? c);
}

/** The words of a folded text: runs of letters and digits. */
export function wordsOf(folded: string): string[] {
  return folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

import { describe, expect, it } from 'vitest';
import { checkName, normaliseName } from './names.js';

const ZWSP = '\u200b';

/** Names that must never reach the big screen, with the reason the phone is given. */
const REFUSED: [label: string, name: string, reason: string][] = [
  ['English', 'fuck you', 'offensive'],
  ['English leetspeak', 'sh1t', 'offensive'],
  ['English spaced out', 's h i t', 'offensive'],
  ['English with symbols', 'a$$hole', 'offensive'],
  ['French', 'connard', 'offensive'],
  ['French', 'Salope', 'offensive'],
  ['Spanish', 'hijo de puta', 'offensive'],
  ['Spanish', 'Gilipollas', 'offensive'],
  ['German', 'Arschloch', 'offensive'],
  ['German spaced out', 'f o t z e', 'offensive'],
  ['Italian', 'Vaffanculo', 'offensive'],
  ['Portuguese', 'Caralho', 'offensive'],
  ['Dutch', 'Lulhannes', 'offensive'],
  ['Dutch', 'kut', 'offensive'],
  ['bidi-reversed insult', '\u202Ekcuf', 'offensive'],
  ['zero-width-padded ADMIN', `A${ZWSP}D${ZWSP}M${ZWSP}I${ZWSP}N`, 'reserved'],
  ['Greek Alpha ADMIN', '\u0391DMIN', 'reserved'],
  ['fake staff badge', 'Marquee Staff ✔ (official)', 'reserved'],
  ['host', 'The Host', 'reserved'],
  ['moderator', 'm0derator', 'reserved'],
  ['zero-width only', `${ZWSP}${ZWSP}\u200c\u2060`, 'empty'],
  ['blank', '   \u3164  ', 'empty'],
  ['bidi only', '\u202E\u202D', 'empty'],
  ['URL', 'https://evil.example', 'link'],
  ['bare domain', 'buy-now.com', 'link'],
  ['spelled-out dot', 'casino dot com', 'link'],
];

const PASSED = ['Bot 455', 'Row 7117', 'Agent 007', 'Chloé', 'José María', '李小龍', 'محمد', "O'Neil", 'Scunthorpe', 'Cockburn', '🍿 Popcorn Queen', '👩‍🚀', 'Ghostbuster', 'Anna-Lena Schröder', 'Dickens'];

describe('player names', () => {
  it.each(REFUSED)('refuses %s: %j', (_label, name, reason) => {
    expect(checkName(name)).toEqual({ ok: false, reason });
  });

  it.each(PASSED)('accepts %j as typed', (name) => {
    expect(checkName(name)).toEqual({ ok: true, name: name.normalize('NFKC') });
  });

  it('cuts a Zalgo stack down to two marks per letter', () => {
    const zalgo = `Z${'\u0316\u0324\u0353\u0330'.repeat(5)}oe`;
    const result = checkName(zalgo);
    expect(result).toEqual({ ok: true, name: 'Z\u0316\u0324oe' });
  });

  it('removes bidi, zero-width and control characters and collapses whitespace', () => {
    expect(normaliseName(`  Ann\u202E${ZWSP}a \t\n  Lee\u0007 `)).toBe('Anna Lee');
    expect(normaliseName('Ｆｕｌｌｗｉｄｔｈ')).toBe('Fullwidth');
  });
});

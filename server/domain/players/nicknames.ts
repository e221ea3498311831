/**
 * Generated nicknames (session setting `nicknames: generated`, DESIGN §15): a friendly two-word
 * name such as "Brave Otter", from `unique-names-generator`'s adjective and animal lists. Each
 * goes through the same name check as a typed one, so nothing unfortunate is ever put together.
 */
import { adjectives, animals, uniqueNamesGenerator } from 'unique-names-generator';
import { checkName } from './names.js';

const ATTEMPTS = 10;

export function generateNickname(): string {
  for (let i = 0; i < ATTEMPTS; i++) {
    const candidate = uniqueNamesGenerator({ dictionaries: [adjectives, animals], separator: ' ', style: 'capital', length: 2 });
    const check = checkName(candidate);
    if (check.ok) return check.name;
  }
  return 'Happy Popcorn';
}

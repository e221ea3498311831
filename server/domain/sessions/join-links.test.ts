import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JoinLinks } from './join-links.js';

const SECRET = 'a-test-secret-of-enough-length';
const TTL_SECONDS = 3600;
const SESSION = '7f0c1c8e-2d7b-4f57-9a55-2f7c0d1e9b10';

/** Links signed at `signedAt`, checked at `checkedAt` (ms). */
function linksAt(signedAt: number, checkedAt = signedAt) {
  const signer = new JoinLinks(SECRET, TTL_SECONDS, () => signedAt);
  const checker = new JoinLinks(SECRET, TTL_SECONDS, () => checkedAt);
  return { signer, checker };
}

const query = (url: string) => new URL(url, 'http://x').searchParams;

describe('JoinLinks', () => {
  it('creates /player/{id}?t=…&sig=… with the timestamp it signed', () => {
    const { signer } = linksAt(1_700_000_000_000);
    const link = signer.create(SESSION);
    expect(link.timestamp).toBe(1_700_000_000_000);
    expect(link.url).toBe(`/player/${SESSION}?t=1700000000000&sig=${signer.sign(SESSION, 1_700_000_000_000)}`);
    // DESIGN §6: HMAC-SHA256 over the session id and t with SECRET.
    const expected = createHmac('sha256', SECRET).update(`${SESSION}.1700000000000`).digest('hex');
    expect(query(link.url).get('sig')).toBe(expected);
  });

  it('accepts its own fresh link, with t as a number or as the string from the query', () => {
    const { signer, checker } = linksAt(1_700_000_000_000, 1_700_000_000_000 + 59_000);
    const params = query(signer.create(SESSION).url);
    expect(checker.check(SESSION, Number(params.get('t')), params.get('sig'))).toEqual({ valid: true });
    expect(checker.check(SESSION, params.get('t'), params.get('sig'))).toEqual({ valid: true });
    expect(checker.check(SESSION, params.get('t'), params.get('sig')!.toUpperCase())).toEqual({ valid: true });
  });

  it('refuses a link once it is older than the TTL', () => {
    const signedAt = 1_700_000_000_000;
    const { signer } = linksAt(signedAt);
    const { t, sig } = Object.fromEntries(query(signer.create(SESSION).url));
    expect(linksAt(0, signedAt + TTL_SECONDS * 1000).checker.check(SESSION, t, sig)).toEqual({ valid: true });
    expect(linksAt(0, signedAt + TTL_SECONDS * 1000 + 1).checker.check(SESSION, t, sig)).toEqual({ valid: false, reason: 'expired' });
  });

  it('refuses a timestamp far in the future, but tolerates a little clock skew', () => {
    const now = 1_700_000_000_000;
    const { checker } = linksAt(now);
    const soon = now + 30_000;
    const farAway = now + 10 * 60_000;
    expect(checker.check(SESSION, soon, checker.sign(SESSION, soon))).toEqual({ valid: true });
    expect(checker.check(SESSION, farAway, checker.sign(SESSION, farAway))).toEqual({ valid: false, reason: 'expired' });
  });

  it('refuses tampered links: another session, another time, another signature, another secret', () => {
    const now = 1_700_000_000_000;
    const { signer, checker } = linksAt(now);
    const sig = signer.sign(SESSION, now);
    expect(checker.check('another-session', now, sig)).toEqual({ valid: false, reason: 'bad_signature' });
    expect(checker.check(SESSION, now - 1, sig)).toEqual({ valid: false, reason: 'bad_signature' });
    const flipped = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    expect(checker.check(SESSION, now, flipped)).toEqual({ valid: false, reason: 'bad_signature' });
    const foreign = new JoinLinks('some-other-secret-value', TTL_SECONDS, () => now).sign(SESSION, now);
    expect(checker.check(SESSION, now, foreign)).toEqual({ valid: false, reason: 'bad_signature' });
  });

  it('calls missing or malformed parameters by their name, never throwing', () => {
    const now = 1_700_000_000_000;
    const { checker } = linksAt(now);
    const sig = checker.sign(SESSION, now);
    expect(checker.check(SESSION, undefined, sig)).toEqual({ valid: false, reason: 'missing' });
    expect(checker.check(SESSION, now, undefined)).toEqual({ valid: false, reason: 'missing' });
    expect(checker.check(SESSION, '', '')).toEqual({ valid: false, reason: 'missing' });
    expect(checker.check(SESSION, null, null)).toEqual({ valid: false, reason: 'missing' });
    for (const [t, s] of [
      ['soon', sig], [-5, sig], [1.5, sig], [now, 'abc'], [now, sig.slice(2)], [now, `${sig}00`], [now, 'z'.repeat(64)], [now, 42],
    ] as [unknown, unknown][]) {
      expect(checker.check(SESSION, t, s), `${String(t)} ${String(s)}`).toEqual({ valid: false, reason: 'malformed' });
    }
  });
});

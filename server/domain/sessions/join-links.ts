import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a link's timestamp may lie in the future (clock differences between instances). */
const FUTURE_SKEW_MS = 60_000;

export type JoinCheck = { valid: true } | { valid: false; reason: 'missing' | 'malformed' | 'bad_signature' | 'expired' };

/**
 * Signed join links (DESIGN §6): `sig` = HMAC-SHA256(SECRET, "{sessionId}.{t}") in hex. A link proves
 * the phone saw the theatre's screen recently; it is valid for `ttlSeconds`.
 */
export class JoinLinks {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  sign(sessionId: string, timestampMs: number): string {
    return createHmac('sha256', this.secret).update(`${sessionId}.${timestampMs}`).digest('hex');
  }

  create(sessionId: string): { url: string; timestamp: number } {
    const timestamp = this.now();
    const sig = this.sign(sessionId, timestamp);
    return { url: `/player/${encodeURIComponent(sessionId)}?t=${timestamp}&sig=${sig}`, timestamp };
  }

  check(sessionId: string, timestamp: unknown, signature: unknown): JoinCheck {
    if (timestamp === undefined || timestamp === null || timestamp === '' || !signature) {
      return { valid: false, reason: 'missing' };
    }
    const t = typeof timestamp === 'number' ? timestamp : Number(timestamp);
    if (!Number.isSafeInteger(t) || t <= 0 || typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) {
      return { valid: false, reason: 'malformed' };
    }
    const expected = Buffer.from(this.sign(sessionId, t), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), 'hex'))) return { valid: false, reason: 'bad_signature' };
    const age = this.now() - t;
    if (age > this.ttlSeconds * 1000 || age < -FUTURE_SKEW_MS) return { valid: false, reason: 'expired' };
    return { valid: true };
  }
}

export const DEFAULT_RETURN_MESSAGE =
  'This game can only be joined from the theatre. Please scan the QR code on the screen.';

import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * HMAC signatures for upload URLs served by this server (the local store). The signed text names
 * its purpose, so a part signature can never pass as a whole-file one. Expiry is in epoch seconds.
 */
export class UploadSigner {
  constructor(private readonly secret: string) {}

  sign(purpose: string, fields: readonly (string | number)[], expiresAtSeconds: number): string {
    const text = [purpose, ...fields, expiresAtSeconds].join('\n');
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }

  verify(
    purpose: string,
    fields: readonly (string | number)[],
    expires: string | undefined,
    signature: string | undefined,
    nowMs = Date.now(),
  ): SignatureCheck {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.sign(purpose, fields, Number(expires)));
    const given = Buffer.from(signature);
    // The signature is checked before the expiry, so a tampered link never reads as merely expired.
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 < nowMs ? 'expired' : 'valid';
  }
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE = 'marquee_device';
/** A device stays known for a season of shows; every successful login renews it. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

/**
 * Device cookies (DESIGN §15): a browser that once logged in as a username gets a cookie signed
 * with SECRET naming that username. The login limiter never slows such a device, so a guesser
 * sharing the venue's address (or forging one) cannot keep the real administrator out. The
 * cookie grants nothing else: the password is still checked.
 */
export class LoginDevices {
  constructor(private readonly secret: string) {}

  issue(username: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.sign(username, nonce)}`;
  }

  /** True when `cookie` was issued by this server after a login of `username` (any letter case). */
  holds(cookie: string | undefined, username: string): boolean {
    if (!cookie || cookie.length > 200) return false;
    const [nonce, signature, ...rest] = cookie.split('.');
    if (!nonce || !signature || rest.length > 0) return false;
    const expected = Buffer.from(this.sign(username, nonce));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(username: string, nonce: string): string {
    return createHmac('sha256', this.secret).update(`login-device\0${username.trim().toLowerCase()}\0${nonce}`).digest('base64url');
  }
}

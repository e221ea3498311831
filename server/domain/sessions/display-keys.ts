import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a display key opens: one session's screen, or every session of one auditorium. */
export type DisplayScope = { kind: 'session'; id: string } | { kind: 'auditorium'; id: string };

/**
 * Display keys (DESIGN §15): the credential of a big screen, sent as `?key=` to
 * `GET /api/sessions/{id}/join-url`. A key is HMAC-SHA256(SECRET, "display-key\0{kind}\0{id}"),
 * base64url: unguessable without SECRET (256 bits), the same on every instance and after every
 * restart (a projector's bookmarked address keeps working), and nothing to store or look up on
 * each refresh. Revoking them all means rotating SECRET (which also voids open join links);
 * docs/WEB.md says so.
 */
export class DisplayKeys {
  constructor(private readonly secret: string) {}

  keyFor(scope: DisplayScope): string {
    return createHmac('sha256', this.secret).update(`display-key\0${scope.kind}\0${scope.id}`).digest('base64url');
  }

  /** The screen address an operator opens or puts up: the page plus its key. */
  screenLink(scope: DisplayScope): { url: string; key: string } {
    const key = this.keyFor(scope);
    const page = scope.kind === 'session' ? '/display/' : '/display/auditorium/';
    return { url: `${page}${encodeURIComponent(scope.id)}?key=${key}`, key };
  }

  /** True when `key` opens this session: its own key, or the key of the auditorium it runs in. */
  opens(key: unknown, session: { id: string; auditoriumId: string | null }): boolean {
    if (typeof key !== 'string' || key.length === 0 || key.length > 100) return false;
    if (this.matches(key, { kind: 'session', id: session.id })) return true;
    return session.auditoriumId !== null && this.matches(key, { kind: 'auditorium', id: session.auditoriumId });
  }

  private matches(key: string, scope: DisplayScope): boolean {
    const expected = Buffer.from(this.keyFor(scope));
    const given = Buffer.from(key);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

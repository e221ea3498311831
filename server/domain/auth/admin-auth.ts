import type { Admin } from '../../storage/admins.js';
import type { Store } from '../../storage/store.js';
import { hashPassword, hashToken, newToken, randomPassword, verifyPassword } from './passwords.js';

/** How long an admin token lives: a long day at the cinema. */
export const ADMIN_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
export const ADMIN_COOKIE = 'marquee_admin';

export class AdminAuth {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Creates the first administrator when there is none. Returns the generated password when one
   * had to be made up (the caller prints it once).
   */
  async bootstrap(username: string, password: string | undefined): Promise<string | undefined> {
    if ((await this.store.admins.count()) > 0) return undefined;
    const chosen = password ?? randomPassword();
    try {
      await this.store.admins.create(username, await hashPassword(chosen));
    } catch (err) {
      // Another instance created it at the same moment.
      if ((await this.store.admins.count()) > 0) return undefined;
      throw err;
    }
    return password ? undefined : chosen;
  }

  async login(username: string, password: string): Promise<{ token: string; user: Admin; expiresAt: Date } | undefined> {
    const admin = await this.store.admins.findByUsername(username);
    if (!admin || !(await verifyPassword(password, admin.passwordHash))) return undefined;
    const { token, hash } = newToken();
    const expiresAt = new Date(this.now() + ADMIN_TOKEN_TTL_MS);
    await this.store.admins.saveToken(hash, admin.id, expiresAt.toISOString());
    return { token, user: { id: admin.id, username: admin.username }, expiresAt };
  }

  async verify(token: string | undefined): Promise<Admin | undefined> {
    if (!token || token.length > 200) return undefined;
    return this.store.admins.findByToken(hashToken(token), new Date(this.now()).toISOString());
  }

  /** Like verify, plus what an admin socket needs to close on time: the token's hash and expiry. */
  async verifySession(token: string | undefined): Promise<{ admin: Admin; tokenHash: string; expiresAtMs: number } | undefined> {
    if (!token || token.length > 200) return undefined;
    const tokenHash = hashToken(token);
    const found = await this.store.admins.findTokenSession(tokenHash, new Date(this.now()).toISOString());
    return found && { admin: found.admin, tokenHash, expiresAtMs: Date.parse(found.expiresAt) };
  }

  async logout(token: string): Promise<void> {
    await this.store.admins.revokeToken(hashToken(token));
  }
}

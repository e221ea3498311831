import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { newId, nowIso } from './util.js';

export interface Admin {
  id: string;
  username: string;
}

export class AdminRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(username: string, passwordHash: string): Promise<Admin> {
    const id = newId();
    await this.db.insertInto('admins').values({ id, username, password_hash: passwordHash, created_at: nowIso() }).execute();
    return { id, username };
  }

  async findByUsername(username: string): Promise<(Admin & { passwordHash: string }) | undefined> {
    const row = await this.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
    return row && { id: row.id, username: row.username, passwordHash: row.password_hash };
  }

  async saveToken(tokenHash: string, adminId: string, expiresAt: string): Promise<void> {
    await this.db
      .insertInto('admin_tokens')
      .values({ token_hash: tokenHash, admin_id: adminId, created_at: nowIso(), expires_at: expiresAt })
      .execute();
  }

  /** The admin owning an unexpired token, or undefined. */
  async findByToken(tokenHash: string, nowIsoTime: string): Promise<Admin | undefined> {
    const row = await this.db
      .selectFrom('admin_tokens as t')
      .innerJoin('admins as a', 'a.id', 't.admin_id')
      .select(['a.id', 'a.username'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.expires_at', '>', nowIsoTime)
      .executeTakeFirst();
    return row;
  }

  /** The admin owning an unexpired token and when the token expires (the admin sockets close then). */
  async findTokenSession(tokenHash: string, nowIsoTime: string): Promise<{ admin: Admin; expiresAt: string } | undefined> {
    const row = await this.db
      .selectFrom('admin_tokens as t')
      .innerJoin('admins as a', 'a.id', 't.admin_id')
      .select(['a.id', 'a.username', 't.expires_at'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.expires_at', '>', nowIsoTime)
      .executeTakeFirst();
    return row && { admin: { id: row.id, username: row.username }, expiresAt: row.expires_at };
  }

  async revokeToken(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('admin_tokens').where('token_hash', '=', tokenHash).execute();
  }

  async deleteExpiredTokens(nowIsoTime: string): Promise<void> {
    await this.db.deleteFrom('admin_tokens').where('expires_at', '<=', nowIsoTime).execute();
  }
}

import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /** Stores the value unless one is already there (two instances starting at once agree); returns the kept value. */
  async getOrCreate(key: string, create: () => string): Promise<string> {
    const existing = await this.get(key);
    if (existing !== undefined) return existing;
    await this.db
      .insertInto('settings')
      .values({ key, value: create() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.get(key))!;
  }
}

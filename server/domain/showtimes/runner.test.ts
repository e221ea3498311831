import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLifecycle } from '../sessions/lifecycle.js';
import { toPublicSessionInfo } from '../sessions/public-view.js';
import { openStore, type Store } from '../../storage/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../testing/databases.js';
import type { PreShowOwnership } from './ownership.js';
import { PreShowRunner, preShowTitle } from './runner.js';

const MIN = 60_000;
/** A showing at 19:30 in Paris in winter (UTC+1). */
const SHOWTIME = Date.parse('2030-01-15T18:30:00.000Z');

interface Instance {
  store: Store;
  lifecycle: SessionLifecycle;
  runner: PreShowRunner;
  logs: { level: string; message: string; details: Record<string, unknown> }[];
  events: string[];
}

describe.each(DIALECTS)('pre-show scheduler on %s', (dialect) => {
  let database: TestDatabase;
  const clock = { t: 0, now: () => clock.t };
  const open: Store[] = [];

  /** One server's worth of scheduler over the shared database: a restart or a second instance opens another. */
  async function instance(name = 'a', ownership?: PreShowOwnership): Promise<Instance> {
    const store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
    open.push(store);
    const lifecycle = new SessionLifecycle(store);
    const events: string[] = [];
    lifecycle.on('started', (id) => events.push(`started ${id}`));
    lifecycle.on('stopped', (id) => events.push(`stopped ${id}`));
    const logs: Instance['logs'] = [];
    const log = (level: string) => (details: object, message: string) => logs.push({ level, message, details: details as Record<string, unknown> });
    const runner = new PreShowRunner({
      store,
      lifecycle,
      clock,
      log: { info: log('info'), warn: log('warn'), error: log('error') },
      ownership: ownership ?? { instanceId: name, mayRun: async () => true },
    });
    return { store, lifecycle, runner, logs, events };
  }

  // A fresh database per test: the scheduler looks at every auditorium, so tests must not see each other's.
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    await database.drop();
  });

  let a: Instance;
  let auditoriumId: string;
  let templateId: string;

  beforeEach(async () => {
    a = await instance();
    const auditorium = await a.store.auditoriums.create(`Screen ${Math.random()}`);
    auditoriumId = auditorium.id;
    const template = await a.store.sessions.create(
      { title: 'Movie Trivia', auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null },
      'draft',
      { primaryColor: '#ff0000' },
    );
    templateId = template.id;
    await a.store.auditoriums.update(auditoriumId, { preShowSessionId: templateId });
  });

  const addShowtime = (startsAt = SHOWTIME, title = 'Dune') =>
    a.store.showtimes.insertMany(a.store.db, auditoriumId, [{ title, startsAt, utcOffsetMinutes: 60 }]).then((rows) => rows[0]!);
  const copies = async (store = a.store) => (await store.sessions.list()).filter((s) => s.id !== templateId && s.auditoriumId === auditoriumId);
  const at = async (ms: number, ...who: Instance[]) => {
    clock.t = ms;
    for (const i of who.length > 0 ? who : [a]) await i.runner.tick();
  };

  it('starts the copy at showtime − lead and stops it at showtime − end, exactly once', async () => {
    const showtime = await addShowtime();
    await at(SHOWTIME - 20 * MIN - 1);
    expect(await copies()).toEqual([]);

    await at(SHOWTIME - 20 * MIN);
    const [copy] = await copies();
    expect(copy).toMatchObject({ title: 'Movie Trivia — Dune 19:30', status: 'live', auditoriumId, theme: { primaryColor: '#ff0000' } });
    // The room sees the template's title; the long one is the operator's (DESIGN §17).
    expect(copy!.audienceTitle).toBe('Movie Trivia');
    expect(toPublicSessionInfo(copy!).title).toBe('Movie Trivia');
    const resaved = await a.store.sessions.update(copy!.id, { title: copy!.title, returnMessage: 'See you inside' });
    expect(toPublicSessionInfo(resaved!).title).toBe('Movie Trivia');
    const renamed = await a.store.sessions.update(copy!.id, { title: 'Dune night' });
    expect(toPublicSessionInfo(renamed!).title).toBe('Dune night');
    expect(a.events).toEqual([`started ${copy!.id}`]);
    expect(await a.store.showtimes.get(showtime.id)).toMatchObject({
      pre_show_state: 'live',
      session_id: copy!.id,
      pre_show_ends_at: new Date(SHOWTIME - 2 * MIN).toISOString(),
      claimed_by: 'a',
    });

    for (const t of [SHOWTIME - 19 * MIN, SHOWTIME - 10 * MIN, SHOWTIME - 2 * MIN - 1]) await at(t);
    expect((await copies()).map((s) => s.status)).toEqual(['live']);
    expect(a.events).toHaveLength(1);

    await at(SHOWTIME - 2 * MIN);
    expect((await copies()).map((s) => [s.id, s.status])).toEqual([[copy!.id, 'finished']]);
    expect(a.events).toEqual([`started ${copy!.id}`, `stopped ${copy!.id}`]);
    for (const t of [SHOWTIME - MIN, SHOWTIME, SHOWTIME + 60 * MIN]) await at(t);
    expect(a.events).toHaveLength(2);
    expect((await a.store.showtimes.get(showtime.id))!.pre_show_state).toBe('done');
    // The template itself is never started or changed.
    expect((await a.store.sessions.get(templateId))!.status).toBe('draft');
  });

  it('runs a day of pre-shows in several auditoriums by itself', async () => {
    const second = await a.store.auditoriums.create('Screen 2');
    await a.store.auditoriums.update(second.id, { preShowSessionId: templateId, preShowLeadMinutes: 10, preShowEndMinutes: 0 });
    await addShowtime(SHOWTIME, 'Dune');
    await addShowtime(SHOWTIME + 3 * 60 * MIN, 'Heat');
    await a.store.showtimes.insertMany(a.store.db, second.id, [
      { title: 'Alien', startsAt: SHOWTIME, utcOffsetMinutes: 60 },
      { title: 'Jaws', startsAt: SHOWTIME + 2 * 60 * MIN, utcOffsetMinutes: 60 },
    ]);
    // A tick every minute across the evening, as the timer would (every second) at coarser grain.
    for (let t = SHOWTIME - 30 * MIN; t <= SHOWTIME + 4 * 60 * MIN; t += MIN) await at(t);
    const all = (await a.store.sessions.list()).filter((s) => s.id !== templateId);
    expect(all.map((s) => [s.title, s.status]).sort()).toEqual([
      ['Movie Trivia — Alien 19:30', 'finished'],
      ['Movie Trivia — Dune 19:30', 'finished'],
      ['Movie Trivia — Heat 22:30', 'finished'],
      ['Movie Trivia — Jaws 21:30', 'finished'],
    ]);
    expect(all.find((s) => s.title.includes('Alien'))!.auditoriumId).toBe(second.id);
    expect(a.events.filter((e) => e.startsWith('started'))).toHaveLength(4);
    expect(a.events.filter((e) => e.startsWith('stopped'))).toHaveLength(4);
  });

  it('two instances ticking together start and stop each pre-show once', async () => {
    const b = await instance('b');
    const c = await instance('c');
    await addShowtime();
    clock.t = SHOWTIME - 20 * MIN;
    await Promise.all([a.runner.tick(), b.runner.tick(), c.runner.tick()]);
    await Promise.all([a.runner.tick(), b.runner.tick(), c.runner.tick()]);
    expect((await copies()).map((s) => s.status)).toEqual(['live']);
    expect([...a.events, ...b.events, ...c.events].filter((e) => e.startsWith('started'))).toHaveLength(1);
    clock.t = SHOWTIME - 2 * MIN;
    await Promise.all([a.runner.tick(), b.runner.tick(), c.runner.tick()]);
    expect((await copies()).map((s) => s.status)).toEqual(['finished']);
    expect([...a.events, ...b.events, ...c.events].filter((e) => e.startsWith('stopped'))).toHaveLength(1);
  });

  it('an instance whose ownership says no takes no step', async () => {
    const idle = await instance('idle', { instanceId: 'idle', mayRun: async () => false });
    await addShowtime();
    await at(SHOWTIME - 20 * MIN, idle);
    expect(await copies()).toEqual([]);
    await at(SHOWTIME - 20 * MIN);
    expect(await copies()).toHaveLength(1);
  });

  it('a restart in the middle of a pre-show keeps it running and stops it on time, once', async () => {
    await addShowtime();
    await at(SHOWTIME - 20 * MIN);
    const [copy] = await copies();
    // The server goes away; another process starts on the same database ten minutes later.
    const restarted = await instance('a2');
    await at(SHOWTIME - 10 * MIN, restarted);
    await at(SHOWTIME - 5 * MIN, restarted);
    expect((await copies(restarted.store)).map((s) => [s.id, s.status])).toEqual([[copy!.id, 'live']]);
    expect(restarted.events).toEqual([]);
    await at(SHOWTIME - 2 * MIN, restarted);
    expect(restarted.events).toEqual([`stopped ${copy!.id}`]);
    expect((await copies(restarted.store)).map((s) => s.status)).toEqual(['finished']);
  });

  it('a restart that missed a start starts it late while its end is ahead, and says so', async () => {
    const showtime = await addShowtime();
    await at(SHOWTIME - 7 * MIN);
    const [copy] = await copies();
    expect(copy!.status).toBe('live');
    expect(a.logs).toContainEqual({ level: 'info', message: 'pre-show starting late', details: expect.objectContaining({ showtimeId: showtime.id, lateBySeconds: 13 * 60 }) });
    await at(SHOWTIME - 2 * MIN);
    expect((await copies()).map((s) => s.status)).toEqual(['finished']);
  });

  it('a restart after a pre-show end skips it, logs why and creates nothing', async () => {
    const showtime = await addShowtime();
    await at(SHOWTIME - 2 * MIN);
    expect(await copies()).toEqual([]);
    const row = (await a.store.showtimes.get(showtime.id))!;
    expect(row.pre_show_state).toBe('skipped');
    expect(row.note).toMatch(/had ended before it could start/);
    expect(a.logs).toEqual([{ level: 'warn', message: 'pre-show skipped', details: { showtimeId: showtime.id, reason: row.note } }]);
    await at(SHOWTIME + MIN);
    expect(a.logs).toHaveLength(1);
    expect(await copies()).toEqual([]);
  });

  it('a crash between claiming and starting is finished on the next tick, with one copy', async () => {
    const showtime = await addShowtime();
    // The claim was taken, then the process died before copying the template.
    expect(await a.store.showtimes.claimStart(showtime.id, SHOWTIME - 2 * MIN, SHOWTIME - 20 * MIN, 'dead')).toBe(true);
    await at(SHOWTIME - 19 * MIN);
    await at(SHOWTIME - 18 * MIN);
    expect((await copies()).map((s) => s.status)).toEqual(['live']);
    expect(a.events).toHaveLength(1);
  });

  it('a showtime deleted before its pre-show creates nothing', async () => {
    const showtime = await addShowtime();
    await a.store.showtimes.delete(showtime.id);
    await at(SHOWTIME - 20 * MIN);
    await at(SHOWTIME - 2 * MIN);
    expect(await copies()).toEqual([]);
    expect(a.events).toEqual([]);
  });

  it('a pre-show stopped by hand is not started again', async () => {
    const showtime = await addShowtime();
    await at(SHOWTIME - 20 * MIN);
    const [copy] = await copies();
    await a.lifecycle.stop(copy!.id);
    await at(SHOWTIME - 19 * MIN);
    await at(SHOWTIME - 2 * MIN);
    expect((await copies()).map((s) => s.status)).toEqual(['finished']);
    expect(a.events.filter((e) => e.startsWith('started'))).toHaveLength(1);
    expect(await a.store.showtimes.get(showtime.id)).toMatchObject({ pre_show_state: 'done', note: 'its session was stopped by hand before the pre-show end' });
  });

  it('waits for a template chosen late, then starts late; without one by the end, skips', async () => {
    await a.store.auditoriums.update(auditoriumId, { preShowSessionId: null });
    const first = await addShowtime(SHOWTIME, 'Dune');
    const second = await addShowtime(SHOWTIME + 3 * 60 * MIN, 'Heat');
    await at(SHOWTIME - 20 * MIN);
    expect(await copies()).toEqual([]);
    expect((await a.store.showtimes.get(first.id))!.pre_show_state).toBe('pending');
    await a.store.auditoriums.update(auditoriumId, { preShowSessionId: templateId });
    await at(SHOWTIME - 15 * MIN);
    expect((await copies()).map((s) => s.title)).toEqual(['Movie Trivia — Dune 19:30']);
    await a.store.auditoriums.update(auditoriumId, { preShowSessionId: null });
    await at(SHOWTIME + 3 * 60 * MIN - 2 * MIN);
    expect((await a.store.showtimes.get(second.id))!.note).toMatch(/no pre-show session was chosen/);
  });

  it('titles the copy with the wall time the showtime was written in, within 200 characters', () => {
    expect(preShowTitle('Trivia', 'Heat', Date.parse('2030-06-01T23:45:00Z'), 120)).toBe('Trivia — Heat 01:45');
    expect(preShowTitle('Trivia', 'Heat', Date.parse('2030-06-01T02:05:00Z'), -300)).toBe('Trivia — Heat 21:05');
    const long = preShowTitle('T'.repeat(200), 'F'.repeat(200), SHOWTIME, 0);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).toMatch(/F 18:30$/);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { useAdminServer } from '../../../testing/hooks.js';

/** The servers' pre-show clock: 2030-01-15 12:00 UTC, moved by hand. */
const NOON = Date.parse('2030-01-15T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DIALECTS)('showtimes API on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;
  const clock = { t: NOON, now: () => clock.t };

  // The scheduler's own timer stays out of the way (an hour); tests take its steps with tick().
  useAdminServer(
    dialect,
    (s, a) => {
      server = s;
      api = a;
    },
    { preShows: { clock, intervalMs: 3_600_000 } },
  );

  let auditoriumId: string;
  let templateId: string;
  beforeEach(async () => {
    clock.t = NOON;
    auditoriumId = (await api.post('/api/admin/auditoriums', { name: 'Screen 1' })).body.id;
    templateId = (await api.post('/api/admin/sessions', { title: 'Movie Trivia', autoRotate: true, mediaItemsPerTransition: 1 })).body.id;
  });

  const showtimesUrl = () => `/api/admin/auditoriums/${auditoriumId}/showtimes`;
  const list = async () => (await api.get(showtimesUrl())).body as { id: string; title: string; startsAt: string; preShow: Record<string, unknown> }[];
  const add = (title: string, startsAt: string) => api.post(showtimesUrl(), { title, startsAt });
  async function importCsv(body: string | Buffer, id = auditoriumId) {
    const res = await server.server.app.inject({
      method: 'POST',
      url: `/api/admin/auditoriums/${id}/showtimes/import`,
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'text/csv' },
      payload: body,
    });
    return { status: res.statusCode, body: res.json() };
  }
  const tick = () => server.server.preShows.tick();

  it('adds showtimes with their time zone, lists upcoming first, and deletes', async () => {
    const late = await add('  Heat  ', '2030-01-15T21:00:00+01:00');
    expect(late.status).toBe(201);
    expect(late.body).toEqual({
      id: expect.any(String),
      auditoriumId,
      title: 'Heat',
      startsAt: '2030-01-15T20:00:00.000Z',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      preShow: { state: 'pending', startsAt: '2030-01-15T19:40:00.000Z', endsAt: '2030-01-15T19:58:00.000Z', sessionId: null, note: null },
    });
    const early = (await add('Dune', '2030-01-15T13:30Z')).body;
    const soon = (await add('Alien', '2030-01-15 09:00-05:00')).body; // 14:00 UTC, a space for the T
    expect(soon.startsAt).toBe('2030-01-15T14:00:00.000Z');
    expect((await list()).map((s) => s.title)).toEqual(['Dune', 'Alien', 'Heat']);

    // Once Dune has begun it moves below the upcoming ones.
    clock.t = Date.parse('2030-01-15T13:31:00Z');
    expect((await list()).map((s) => s.title)).toEqual(['Alien', 'Heat', 'Dune']);

    expect((await api.delete(`/api/admin/showtimes/${early.id}`)).status).toBe(204);
    expect((await list()).map((s) => s.title)).toEqual(['Alien', 'Heat']);
    expect((await api.delete(`/api/admin/showtimes/${early.id}`)).status).toBe(404);
  });

  const malformed: [string, unknown, RegExp][] = [
    ['a time without a time zone', { title: 'Dune', startsAt: '2030-01-15T19:30' }, /has no time zone/],
    ['a date that does not exist', { title: 'Dune', startsAt: '2030-02-30T19:30Z' }, /not a real date/],
    ['an hour of 25', { title: 'Dune', startsAt: '2030-01-15T25:00Z' }, /not a real date/],
    ['words for a time', { title: 'Dune', startsAt: 'tonight' }, /must be a date and time with its time zone/],
    ['a blank title', { title: '   ', startsAt: '2030-01-15T19:30Z' }, /title is empty/],
    ['a title of 201 characters', { title: 'x'.repeat(201), startsAt: '2030-01-15T19:30Z' }, /longer than 200/],
    ['a NUL in the title', { title: 'Du\u0000ne', startsAt: '2030-01-15T19:30Z' }, /NUL/],
    ['no startsAt', { title: 'Dune' }, /startsAt/],
    ['a number for startsAt', { title: 'Dune', startsAt: 1893456000000 }, /startsAt/],
    ['a time in the past', { title: 'Dune', startsAt: '2030-01-15T11:59Z' }, /in the past/],
    ['the present moment', { title: 'Dune', startsAt: iso(NOON) }, /in the past/],
  ];
  it.each(malformed)('refuses %s (400, nothing stored)', async (_name, body, message) => {
    const res = await api.post(showtimesUrl(), body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await list()).toEqual([]);
  });

  it('refuses a showtime whose pre-show overlaps another in the same auditorium (409), not in another', async () => {
    expect((await add('Dune', '2030-01-15T19:00Z')).status).toBe(201);
    const clash = await add('Heat', '2030-01-15T19:19+00:00');
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/"Heat" at 2030-01-15 19:19 UTC overlaps the pre-show of "Dune" at 2030-01-15 19:00 UTC/);
    expect((await add('Heat', '2030-01-15T18:41Z')).status).toBe(409);
    // Exactly one lead time apart is fine.
    expect((await add('Heat', '2030-01-15T19:20Z')).status).toBe(201);
    const other = (await api.post('/api/admin/auditoriums', { name: 'Screen 2' })).body.id;
    expect((await api.post(`/api/admin/auditoriums/${other}/showtimes`, { title: 'Dune', startsAt: '2030-01-15T19:00Z' })).status).toBe(201);
    expect((await list()).map((s) => s.title)).toEqual(['Dune', 'Heat']);
  });

  it('of overlapping showtimes added at the same moment, exactly one is stored', async () => {
    // All five lie within one lead time (20 min) of each other, so whichever wins, the rest crowd it.
    const results = await Promise.all(['19:00', '19:05', '19:10', '19:15', '18:57'].map((t, i) => add(`Film ${i}`, `2030-01-15T${t}Z`)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await list()).toHaveLength(1);
  });

  it('answers 404 for an unknown auditorium and 401 without a token', async () => {
    expect((await api.get('/api/admin/auditoriums/nope/showtimes')).status).toBe(404);
    expect((await api.post('/api/admin/auditoriums/nope/showtimes', { title: 'Dune', startsAt: '2030-01-15T19:00Z' })).status).toBe(404);
    expect((await importCsv('title,starts_at\nDune,2030-01-15T19:00Z\n', 'nope')).status).toBe(404);
    expect((await api.put('/api/admin/auditoriums/nope', { preShowLeadMinutes: 10 })).status).toBe(404);
    const anonymous = new TestApi(server);
    expect((await anonymous.get(showtimesUrl())).status).toBe(401);
    expect((await anonymous.post(showtimesUrl(), { title: 'Dune', startsAt: '2030-01-15T19:00Z' })).status).toBe(401);
    expect((await anonymous.put(`/api/admin/auditoriums/${auditoriumId}`, { preShowLeadMinutes: 10 })).status).toBe(401);
    expect(await list()).toEqual([]);
  });

  it('keeps pre-show settings with defaults 20 and 2 minutes, and checks them', async () => {
    const created = (await api.get('/api/admin/auditoriums')).body.find((a: { id: string }) => a.id === auditoriumId);
    expect(created).toMatchObject({ preShowSessionId: null, preShowLeadMinutes: 20, preShowEndMinutes: 2 });
    const put = await api.put(`/api/admin/auditoriums/${auditoriumId}`, { preShowSessionId: templateId, preShowLeadMinutes: 15, preShowEndMinutes: 0 });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ id: auditoriumId, name: 'Screen 1', createdAt: created.createdAt, preShowSessionId: templateId, preShowLeadMinutes: 15, preShowEndMinutes: 0 });

    for (const body of [
      { preShowLeadMinutes: 0 },
      { preShowLeadMinutes: 121 },
      { preShowLeadMinutes: 10.5 },
      { preShowEndMinutes: 61 },
      { preShowEndMinutes: -1 },
      { preShowEndMinutes: 15 },
      { preShowLeadMinutes: 5, preShowEndMinutes: 5 },
      { preShowSessionId: 'no-such-session' },
      {},
    ]) {
      const res = await api.put(`/api/admin/auditoriums/${auditoriumId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await api.put(`/api/admin/auditoriums/${auditoriumId}`, { preShowSessionId: null })).body.preShowSessionId).toBeNull();

    // Two showtimes 30 minutes apart: a lead of 45 minutes would overlap them.
    await add('Dune', '2030-01-15T19:00Z');
    await add('Heat', '2030-01-15T19:30Z');
    const longer = await api.put(`/api/admin/auditoriums/${auditoriumId}`, { preShowLeadMinutes: 45 });
    expect(longer.status).toBe(409);
    expect(longer.body.message).toMatch(/A lead time of 45 min would make showtimes overlap/);
    expect((await api.put(`/api/admin/auditoriums/${auditoriumId}`, { preShowLeadMinutes: 30 })).status).toBe(200);
  });

  it('imports a CSV file: time zones, quotes, BOM and CRLF; the same file again adds nothing', async () => {
    const file = '\uFEFFtitle,starts_at\r\nDune,2030-01-15T19:00+01:00\r\n"Crouching Tiger, Hidden Dragon",2030-01-15T20:30Z\r\n"The ""Thing""",2030-01-16 09:00-08:00\r\n\r\n';
    expect(await importCsv(file)).toEqual({ status: 200, body: { imported: 3, skipped: 0 } });
    expect((await list()).map((s) => [s.title, s.startsAt])).toEqual([
      ['Dune', '2030-01-15T18:00:00.000Z'],
      ['Crouching Tiger, Hidden Dragon', '2030-01-15T20:30:00.000Z'],
      ['The "Thing"', '2030-01-16T17:00:00.000Z'],
    ]);
    expect(await importCsv(file)).toEqual({ status: 200, body: { imported: 0, skipped: 3 } });
    expect(await importCsv('Starts_At,TITLE\n2030-01-17T19:00Z,Heat\n')).toEqual({ status: 200, body: { imported: 1, skipped: 0 } });
    expect(await list()).toHaveLength(4);
  });

  it('refuses a malformed file with every problem and its line, storing nothing', async () => {
    const file = [
      'title,starts_at',
      'Dune,2030-01-15T19:00Z',
      'Heat,2030-01-15T19:00', // line 3: no time zone
      ',2030-01-16T19:00Z', // line 4: no title
      'Alien,2030-13-01T19:00Z', // line 5: no such month
      'Jaws,2030-01-15T11:00Z', // line 6: past
      'Too,many,cells', // line 7
      '"Multi', 'line title",yesterday', // lines 8-9: reported at 8
    ].join('\n');
    const res = await importCsv(file);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Nothing was imported\. 6 problems in the file, the first on line 3: starts_at "2030-01-15T19:00" has no time zone/);
    expect(res.body.errors).toEqual([
      { line: 3, message: expect.stringMatching(/has no time zone/) },
      { line: 4, message: expect.stringMatching(/title is empty/) },
      { line: 5, message: expect.stringMatching(/not a real date/) },
      { line: 6, message: expect.stringMatching(/is in the past/) },
      { line: 7, message: 'This line has 3 cells but the header has 2. A cell containing a comma must be in double quotes.' },
      { line: 8, message: expect.stringMatching(/must be a date and time with its time zone/) },
    ]);
    expect(await list()).toEqual([]);

    const cases: [string | Buffer, RegExp][] = [
      ['', /The file is empty/],
      ['film,time\nDune,2030-01-15T19:00Z\n', /Unknown column "film"/],
      ['title\nDune\n', /Missing column: starts_at/],
      ['title;starts_at\nDune;2030-01-15T19:00Z\n', /separated by semicolons/],
      ['title,starts_at\n"Dune,2030-01-15T19:00Z\n', /never closed/],
      [Buffer.from('title,starts_at\nCaf\xe9,2030-01-15T19:00Z\n', 'latin1'), /not UTF-8/],
    ];
    for (const [body, message] of cases) {
      const bad = await importCsv(body);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(message);
      expect(Array.isArray(bad.body.errors)).toBe(true);
    }
    expect(await list()).toEqual([]);
  });

  it('refuses overlapping rows with 409 and their lines, whether with the file or what is there', async () => {
    await add('Dune', '2030-01-15T19:00Z');
    const res = await importCsv('title,starts_at\nHeat,2030-01-15T21:00Z\nAlien,2030-01-15T19:10Z\nJaws,2030-01-15T21:05Z\n');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^Nothing was imported\. 2 problems in the file, the first on line 3: "Alien"/);
    expect(res.body.errors).toEqual([
      { line: 3, message: expect.stringMatching(/overlaps the pre-show of "Dune"/) },
      { line: 4, message: expect.stringMatching(/"Jaws" at 2030-01-15 21:05 UTC overlaps the pre-show of "Heat"/) },
    ]);
    expect((await list()).map((s) => s.title)).toEqual(['Dune']);
  });

  it('runs a pre-show from its showtime; deleting the showtime mid-pre-show stops it, before its start creates nothing', async () => {
    await api.put(`/api/admin/auditoriums/${auditoriumId}`, { preShowSessionId: templateId });
    const dune = (await add('Dune', '2030-01-15T19:00+01:00')).body; // 18:00 UTC
    const heat = (await add('Heat', '2030-01-15T21:00+01:00')).body; // 20:00 UTC
    const now = () => api.get(`/api/auditoriums/${auditoriumId}/now`);
    expect((await now()).body).toEqual({ auditorium: { id: auditoriumId, name: 'Screen 1' }, liveSessionId: null, next: { title: 'Dune', startsAt: '2030-01-15T18:00:00.000Z' } });

    clock.t = Date.parse('2030-01-15T17:40:00Z');
    await tick();
    const [running] = await list();
    expect(running!.preShow).toMatchObject({ state: 'live', sessionId: expect.any(String), startsAt: '2030-01-15T17:40:00.000Z', endsAt: '2030-01-15T17:58:00.000Z' });
    const sessionId = running!.preShow.sessionId as string;
    expect((await api.get(`/api/admin/sessions/${sessionId}`)).body).toMatchObject({ title: 'Movie Trivia — Dune 19:00', status: 'live', auditoriumId });
    expect((await now()).body).toMatchObject({ liveSessionId: sessionId, next: { title: 'Dune' } });

    expect((await api.delete(`/api/admin/showtimes/${dune.id}`)).status).toBe(204);
    expect((await api.get(`/api/admin/sessions/${sessionId}`)).body.status).toBe('finished');
    expect((await now()).body).toMatchObject({ liveSessionId: null, next: { title: 'Heat' } });

    // Heat deleted before its pre-show: nothing is ever made for it.
    expect((await api.delete(`/api/admin/showtimes/${heat.id}`)).status).toBe(204);
    const sessionsBefore = (await api.get('/api/admin/sessions')).body.length;
    for (const t of ['2030-01-15T19:40:00Z', '2030-01-15T19:59:00Z']) {
      clock.t = Date.parse(t);
      await tick();
    }
    expect((await api.get('/api/admin/sessions')).body.length).toBe(sessionsBefore);
    expect((await now()).body).toMatchObject({ liveSessionId: null, next: null });
  });

  it('gives screens the auditorium, its theme and 404 for an unknown one, without a token', async () => {
    const anonymous = new TestApi(server);
    await api.put(`/api/admin/sessions/${templateId}`, { theme: { primaryColor: '#123456' } });
    expect((await anonymous.get(`/api/auditoriums/${auditoriumId}/theme`)).body).toEqual({ theme: {} });
    await api.put(`/api/admin/auditoriums/${auditoriumId}`, { preShowSessionId: templateId });
    expect((await anonymous.get(`/api/auditoriums/${auditoriumId}/theme`)).body.theme).toMatchObject({ primaryColor: '#123456' });
    const now = await anonymous.get(`/api/auditoriums/${auditoriumId}/now`);
    expect(now.status).toBe(200);
    expect(now.headers['cache-control']).toBe('no-store');
    expect((await anonymous.get('/api/auditoriums/nope/now')).status).toBe(404);
    expect((await anonymous.get('/api/auditoriums/nope/theme')).status).toBe(404);
  });

  it('documents every new route in the OpenAPI', async () => {
    const paths = (await api.get('/api/docs/json')).body.paths;
    expect(Object.keys(paths['/api/admin/auditoriums/{id}/showtimes'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/api/admin/auditoriums/{id}/showtimes/import'])).toEqual(['post']);
    expect(Object.keys(paths['/api/admin/showtimes/{id}'])).toEqual(['delete']);
    expect(Object.keys(paths['/api/admin/auditoriums/{id}'])).toEqual(['put']);
    expect(paths['/api/admin/auditoriums/{id}'].put.requestBody.content['application/json'].schema.properties).toHaveProperty('preShowLeadMinutes');
    expect(Object.keys(paths['/api/auditoriums/{id}/now'])).toEqual(['get']);
    expect(Object.keys(paths['/api/auditoriums/{id}/theme'])).toEqual(['get']);
  });
});

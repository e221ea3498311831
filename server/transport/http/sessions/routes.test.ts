import { describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { useAdminServer } from '../../../testing/hooks.js';

// DESIGN §2 Session JSON, exactly these keys.
const SESSION_KEYS = [
  'id', 'title', 'status', 'createdAt', 'auditoriumId', 'startsAt', 'autoRotate', 'mediaItemsPerTransition',
  'returnMessage', 'currentQuestionIndex', 'theme', 'prizeDraw', 'maxPlayers', 'nicknames',
].sort();

const HOUR_MS = 3_600_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

describe.each(DIALECTS)('session CRUD on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  useAdminServer(dialect, (s, a) => {
    server = s;
    api = a;
  });

  async function create(body: Record<string, unknown> = {}) {
    const res = await api.post('/api/admin/sessions', { title: 'Friday Quiz', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  const count = async () => (await api.get('/api/admin/sessions')).body.length as number;
  const read = async (id: string) => (await api.get(`/api/admin/sessions/${id}`)).body;

  it('refuses every session call without a token or with a bogus one (401 with a message)', async () => {
    const session = await create();
    const anonymous = new TestApi(server);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/sessions'],
      ['GET', `/api/admin/sessions/${session.id}`],
      ['POST', '/api/admin/sessions', { title: 'x' }],
      ['PUT', `/api/admin/sessions/${session.id}`, { title: 'x' }],
      ['DELETE', `/api/admin/sessions/${session.id}`],
      ['POST', `/api/admin/sessions/${session.id}/start`],
      ['POST', `/api/admin/sessions/${session.id}/stop`],
      ['POST', `/api/admin/sessions/${session.id}/restart`],
      ['POST', `/api/admin/sessions/${session.id}/duplicate`],
    ];
    const before = await count();
    for (const [method, url, body] of calls) {
      const res = await anonymous.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toEqual({ message: 'Authentication required' });
      const bogus = await anonymous.request(method as 'GET', url, body, { authorization: 'Bearer not-a-real-token' });
      expect(bogus.status, `bogus ${method} ${url}`).toBe(401);
      expect(bogus.body).toEqual({ message: 'Invalid or expired token' });
    }
    expect(await count()).toBe(before);
    expect(await read(session.id)).toEqual(session);
  });

  it('creates a session with the documented shape and defaults', async () => {
    const session = await create({ title: '  Friday Quiz  ' });
    expect(Object.keys(session).sort()).toEqual(SESSION_KEYS);
    expect(session).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Friday Quiz',
      status: 'draft',
      createdAt: expect.stringMatching(ISO),
      auditoriumId: null,
      startsAt: null,
      autoRotate: true,
      mediaItemsPerTransition: 1,
      returnMessage: null,
      currentQuestionIndex: 0,
      theme: {},
      prizeDraw: { enabled: false, prize: '', consentText: '' },
      maxPlayers: 2000,
      nicknames: 'free',
    });
    expect(await read(session.id)).toEqual(session);
    const list = (await api.get('/api/admin/sessions')).body;
    expect(list.find((s: { id: string }) => s.id === session.id)).toEqual(session);
    for (const s of list) expect(Object.keys(s).sort()).toEqual(SESSION_KEYS);
  });

  it('stores every setting given on create; blank optional values become absent', async () => {
    const auditorium = (await api.post('/api/admin/auditoriums', { name: 'Screen 1' })).body;
    const session = await create({
      auditoriumId: auditorium.id,
      autoRotate: false,
      mediaItemsPerTransition: 10,
      returnMessage: '  Come back to Screen 1!  ',
      theme: { primaryColor: '#112233', questionTextSize: 'xlarge', backdropBlur: false },
    });
    expect(session).toMatchObject({
      auditoriumId: auditorium.id,
      autoRotate: false,
      mediaItemsPerTransition: 10,
      returnMessage: 'Come back to Screen 1!',
      theme: { primaryColor: '#112233', questionTextSize: 'xlarge', backdropBlur: false },
    });
    const blanks = await create({ auditoriumId: '', startsAt: '', returnMessage: '   ' });
    expect(blanks).toMatchObject({ auditoriumId: null, startsAt: null, returnMessage: null, status: 'draft' });
  });

  it('is scheduled with a future start time, draft with a past one', async () => {
    const future = new Date(Date.now() + 2 * HOUR_MS);
    const scheduled = await create({ startsAt: future.toISOString() });
    expect(scheduled.status).toBe('scheduled');
    expect(scheduled.startsAt).toBe(future.toISOString());
    // Any offset is accepted and stored as UTC.
    const withOffset = await create({ startsAt: '2999-01-01T20:00:00+02:00' });
    expect(withOffset).toMatchObject({ status: 'scheduled', startsAt: '2999-01-01T18:00:00.000Z' });
    const past = await create({ startsAt: new Date(Date.now() - HOUR_MS).toISOString() });
    expect(past.status).toBe('draft');
  });

  it('accepts the theme as a JSON string', async () => {
    const session = await create({ theme: JSON.stringify({ backgroundOverlay: 'dark', primaryFont: 'Georgia, serif' }) });
    expect(session.theme).toEqual({ backgroundOverlay: 'dark', primaryFont: 'Georgia, serif' });
    expect((await read(session.id)).theme).toEqual(session.theme);
  });

  const invalidCreates: [string, Record<string, unknown>][] = [
    ['missing title', { title: undefined }],
    ['empty title', { title: '' }],
    ['whitespace title', { title: '   ' }],
    ['title of the wrong type', { title: 42 }],
    ['a NUL character in the title', { title: 'Quiz\u0000night' }],
    ['a NUL character in the return message', { returnMessage: 'Back\u0000' }],
    ['a NUL character in the auditorium id', { auditoriumId: 'a\u0000b' }],
    ['0 media items', { mediaItemsPerTransition: 0 }],
    ['11 media items', { mediaItemsPerTransition: 11 }],
    ['1.5 media items', { mediaItemsPerTransition: 1.5 }],
    ['media items as a string', { mediaItemsPerTransition: '3' }],
    ['a start time that is no date', { startsAt: 'next friday' }],
    ['a start time that is a bare number', { startsAt: '1' }],
    ['a start time on 30 February', { startsAt: '2030-02-30T10:00:00Z' }],
    ['a start time without a time zone', { startsAt: '2030-01-01T20:00:00' }],
    ['a start date without a time', { startsAt: '2030-01-01' }],
    ['a start time of the wrong type', { startsAt: 1700000000000 }],
    ['an unknown auditorium', { auditoriumId: 'no-such-auditorium' }],
    ['autoRotate as a string', { autoRotate: 'yes' }],
    ['a bad theme colour', { theme: { primaryColor: 'red; background: url(x)' } }],
    ['a bad theme enum', { theme: { questionTextSize: 'huge' } }],
    ['a bad theme overlay', { theme: { backgroundOverlay: 'opaque' } }],
    ['a theme string that is not JSON', { theme: '{not json' }],
    ['a theme that is a list', { theme: ['#fff'] }],
    ['a theme image from elsewhere', { theme: { logo: 'javascript:alert(1)' } }],
  ];

  it.each(invalidCreates)('refuses a create with %s (400, nothing stored)', async (_name, patch) => {
    const before = await count();
    const res = await api.post('/api/admin/sessions', { title: 'Valid title', ...patch });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message.length).toBeGreaterThan(0);
    expect(await count()).toBe(before);
  });

  it('answers 400 with a message for malformed JSON and non-object bodies, never 500', async () => {
    const before = await count();
    const malformed = await api.request('POST', '/api/admin/sessions', '{"title": "x"', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON body' });
    for (const body of ['[]', '"title"', 'null', '42']) {
      const res = await api.request('POST', '/api/admin/sessions', body, { 'content-type': 'application/json' });
      expect(res.status, body).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const noBody = await api.post('/api/admin/sessions');
    expect(noBody.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('updates settings and answers the updated session', async () => {
    const session = await create();
    const auditorium = (await api.post('/api/admin/auditoriums', { name: 'Screen 2' })).body;
    const res = await api.put(`/api/admin/sessions/${session.id}`, {
      title: ' Renamed ',
      auditoriumId: auditorium.id,
      autoRotate: false,
      mediaItemsPerTransition: 4,
      returnMessage: 'Back to the foyer',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(SESSION_KEYS);
    expect(res.body).toEqual({
      ...session,
      title: 'Renamed',
      auditoriumId: auditorium.id,
      autoRotate: false,
      mediaItemsPerTransition: 4,
      returnMessage: 'Back to the foyer',
    });
    expect(await read(session.id)).toEqual(res.body);

    // The edit form sends an empty auditorium and start time as null.
    const cleared = await api.put(`/api/admin/sessions/${session.id}`, { title: 'Renamed', auditoriumId: null, startsAt: null });
    expect(cleared.body).toMatchObject({ auditoriumId: null, startsAt: null, status: 'draft' });
  });

  it('re-decides draft or scheduled when the start time changes', async () => {
    const session = await create();
    const future = new Date(Date.now() + HOUR_MS).toISOString();
    const scheduled = await api.put(`/api/admin/sessions/${session.id}`, { startsAt: future });
    expect(scheduled.body).toMatchObject({ status: 'scheduled', startsAt: future });
    const draft = await api.put(`/api/admin/sessions/${session.id}`, { startsAt: null });
    expect(draft.body).toMatchObject({ status: 'draft', startsAt: null });
  });

  it('replaces the theme with a theme-only update (object or JSON string)', async () => {
    const session = await create({ title: 'Themed', theme: { primaryColor: '#000000' } });
    const res = await api.put(`/api/admin/sessions/${session.id}`, { theme: { textColor: '#fff', backgroundOverlay: 'light' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...session, theme: { textColor: '#fff', backgroundOverlay: 'light' } });
    const asString = await api.put(`/api/admin/sessions/${session.id}`, { theme: JSON.stringify({ questionFontWeight: 'black' }) });
    expect(asString.body.theme).toEqual({ questionFontWeight: 'black' });
    expect(asString.body.title).toBe('Themed');
  });

  const invalidUpdates: [string, Record<string, unknown>][] = [
    ['an empty body', {}],
    ['a blank title', { title: '' }],
    ['a whitespace title', { title: ' \t ' }],
    ['a null title', { title: null }],
    ['0 media items', { mediaItemsPerTransition: 0 }],
    ['11 media items', { mediaItemsPerTransition: 11 }],
    ['1.5 media items', { mediaItemsPerTransition: 1.5 }],
    ['media items as a string', { mediaItemsPerTransition: '3' }],
    ['a bad start time', { startsAt: '2024-13-45T99:00:00Z' }],
    ['an unknown auditorium', { auditoriumId: 'nope' }],
    ['a bad theme colour', { theme: { successColor: 'not a colour!' } }],
    ['a bad theme weight', { theme: { questionFontWeight: 'heavy' } }],
    ['a theme blur as a string', { theme: { backdropBlur: 'false' } }],
    ['a null theme', { theme: null }],
  ];

  it.each(invalidUpdates)('refuses an update with %s (400, nothing changed)', async (_name, body) => {
    const session = await create({ title: 'Untouched', theme: { primaryColor: '#123456' } });
    const res = await api.put(`/api/admin/sessions/${session.id}`, body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await read(session.id)).toEqual(session);
  });

  it('refuses a malformed JSON update with 400 and changes nothing', async () => {
    const session = await create();
    const res = await api.request('PUT', `/api/admin/sessions/${session.id}`, '{"title":', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed JSON body' });
    expect(await read(session.id)).toEqual(session);
  });

  it('answers 404 with a message for unknown session ids', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/admin/sessions/${unknown}`],
      ['PUT', `/api/admin/sessions/${unknown}`, { title: 'x' }],
      ['PUT', `/api/admin/sessions/${unknown}`, { theme: { textColor: '#fff' } }],
      ['DELETE', `/api/admin/sessions/${unknown}`],
      ['POST', `/api/admin/sessions/${unknown}/start`],
      ['POST', `/api/admin/sessions/${unknown}/stop`],
      ['POST', `/api/admin/sessions/${unknown}/restart`],
      ['POST', `/api/admin/sessions/${unknown}/duplicate`],
    ];
    const before = await count();
    // An id PostgreSQL could not even compare (NUL) is bad input, not a server error.
    expect((await api.get('/api/admin/sessions/a%00b')).status).toBe(400);
    for (const [method, url, body] of calls) {
      const res = await api.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body).toEqual({ message: 'Session not found' });
    }
    expect(await count()).toBe(before);
  });

  it('lists the newest session first', async () => {
    const older = await create({ title: 'Older' });
    await new Promise((r) => setTimeout(r, 5));
    const newer = await create({ title: 'Newer' });
    const ids = (await api.get('/api/admin/sessions')).body.map((s: { id: string }) => s.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
  });
});

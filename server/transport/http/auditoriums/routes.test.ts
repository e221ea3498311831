import { describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { useAdminServer } from '../../../testing/hooks.js';

describe.each(DIALECTS)('auditoriums on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  useAdminServer(dialect, (s, a) => {
    server = s;
    api = a;
  });

  const list = async () => (await api.get('/api/admin/auditoriums')).body as { id: string; name: string; createdAt: string }[];

  it('creates an auditorium with a trimmed name and lists them oldest first', async () => {
    const res = await api.post('/api/admin/auditoriums', { name: '  Screen 1  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Screen 1',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      // Pre-show settings (DESIGN §13) with their defaults.
      preShowSessionId: null,
      preShowLeadMinutes: 20,
      preShowEndMinutes: 2,
    });
    await new Promise((r) => setTimeout(r, 5));
    const second = (await api.post('/api/admin/auditoriums', { name: 'IMAX' })).body;
    const all = await list();
    for (const a of all) expect(Object.keys(a).sort()).toEqual(['createdAt', 'id', 'name', 'preShowEndMinutes', 'preShowLeadMinutes', 'preShowSessionId']);
    expect(all.map((a) => a.id)).toEqual([res.body.id, second.id]);
    expect(all[0]).toEqual(res.body);
  });

  const invalid: [string, unknown][] = [
    ['a blank name', { name: '   ' }],
    ['an empty name', { name: '' }],
    ['no name', {}],
    ['a name of the wrong type', { name: 7 }],
    ['a name of 201 characters', { name: 'x'.repeat(201) }],
    ['a NUL character in the name', { name: 'Screen\u00001' }],
  ];
  it.each(invalid)('refuses %s (400, nothing stored)', async (_name, body) => {
    const before = (await list()).length;
    const res = await api.post('/api/admin/auditoriums', body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect((await list()).length).toBe(before);
  });

  it('answers 400 for malformed JSON and 401 without a token', async () => {
    const before = (await list()).length;
    const malformed = await api.request('POST', '/api/admin/auditoriums', '{"name":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON body' });
    const anonymous = new TestApi(server);
    expect((await anonymous.get('/api/admin/auditoriums')).status).toBe(401);
    const create = await anonymous.post('/api/admin/auditoriums', { name: 'Sneaky' });
    expect(create.status).toBe(401);
    expect(create.body).toEqual({ message: 'Authentication required' });
    expect((await list()).length).toBe(before);
  });
});

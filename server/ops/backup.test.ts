/**
 * `npm run backup` while a game is live: the command runs as its own process next to the server
 * (which keeps writing meanwhile), the copy is restored into a new DATA_DIR, and a server started
 * on it has everything and resumes the live question.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { MediaClient } from '../domain/media/testing/client.js';
import { sha256, tinyPng } from '../domain/media/testing/fixtures.js';
import { FakeClock } from '../game/rooms/fake-clock.js';
import { TEST_DATABASE_URL, type TestDatabase } from '../testing/databases.js';
import { createGame, player, startGameServer } from '../transport/ws/testing/setup.js';
import { BackupError, MANIFEST_FILE, backup } from './backup.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** The command an operator types, as a child process with the server's environment. */
function backupCommand(dir: string, env: Record<string, string>) {
  return run(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, 'server', 'ops', 'backup-cli.ts'), dir], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', S3_BUCKET: '', ...env },
  });
}

const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `marquee-${name}-`));

describe('backing up a live SQLite game and restoring it', () => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('copies database and media while players answer; a server on the copy resumes the question', async () => {
    const { server, api } = await startGameServer('sqlite', clock);
    let firstClosed = false;
    const closeFirst = async () => {
      if (firstClosed) return;
      firstClosed = true;
      server.server.app.server.closeAllConnections();
      await server.close();
    };
    cleanup.push(closeFirst);
    const media = new MediaClient(server);
    await media.login();
    const png = tinyPng();
    const objectId = await media.upload(png, 'image/png');
    expect((await media.call('POST', '/api/media', { filePath: `/media/${objectId}`, fileType: 'image', duration: 5 })).status).toBe(201);

    const game = await createGame(server, api, {
      items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1 } }, { question: { text: 'Year of Casablanca?', correctIndex: 2 } }],
      players: 3,
    });
    const [q1, q2] = game.questions;
    const phones = [await player(server, game, 0), await player(server, game, 1), await player(server, game, 2)];
    const answer = async (i: number, questionId: string, selectedIndex: number) => {
      const accepted = phones[i].next('answer_accepted');
      phones[i].send({ type: 'submit_answer', questionId, selectedIndex });
      await accepted;
    };
    const firstQuestion = phones[0].next('session_state', (m) => m.phase === 'question');
    await api.post(`/api/admin/sessions/${game.sessionId}/start`);
    await firstQuestion;
    const secondQuestion = phones[0].next('session_state', (m) => m.phase === 'question' && m.question.id === q2.id);
    for (const [i, choice] of [1, 1, 0].entries()) {
      await clock.advance(1_000);
      await answer(i, q1.id, choice);
    }
    // Question 1 closes early (everyone answered); past its reveal, question 2 opens.
    await phones[0].waitFor((m) => m.type === 'question_end');
    while (!(await Promise.race([secondQuestion.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))]))) {
      await clock.advance(1_000);
    }
    await answer(0, q2.id, 2);
    const { store } = server.server.deps;
    // An accepted answer is committed (DESIGN §8): the backup copies what is stored.
    expect(await store.scores.answersForAsking(game.sessionId, 2)).toHaveLength(1);
    const scoresBefore = (await store.scores.listScores(game.sessionId)).map((s) => [s.name, s.pointsTotal]);
    expect(scoresBefore).toHaveLength(3);

    // The backup runs as its own process while the server keeps writing (players keep registering).
    const backupDir = path.join(tempDir('backup'), 'night-1');
    cleanup.push(() => fs.rmSync(path.dirname(backupDir), { recursive: true, force: true }));
    let writing = true;
    const registrations = (async () => {
      let n = 0;
      while (writing) {
        const res = await api.post('/api/player/register', { name: `Late ${++n}`, email: `late${n}@example.com`, sessionId: game.sessionId });
        expect(res.status).toBe(201);
      }
      return n;
    })();
    const { stdout } = await backupCommand(backupDir, { DATA_DIR: server.database.dataDir });
    writing = false;
    expect(await registrations).toBeGreaterThan(0);
    expect(stdout).toContain('and 1 media file(s)');
    expect(JSON.parse(fs.readFileSync(path.join(backupDir, MANIFEST_FILE), 'utf8'))).toMatchObject({ mediaFiles: 1, database: 'marquee.sqlite' });

    // Disaster: the first machine is gone. Restore = copy the backup folder into a new DATA_DIR.
    await Promise.all(phones.map((p) => p.close()));
    await closeFirst();
    const restoredDir = tempDir('restored');
    cleanup.push(() => fs.rmSync(restoredDir, { recursive: true, force: true }));
    fs.cpSync(backupDir, restoredDir, { recursive: true });
    const database: TestDatabase = { dialect: 'sqlite', dataDir: restoredDir, databaseUrl: undefined, pgSchema: undefined, drop: async () => {} };
    const restored = await startGameServer('sqlite', clock, { database });
    cleanup.push(async () => {
      restored.server.server.app.server.closeAllConnections();
      await restored.server.close();
    });
    const restoredStore = restored.server.server.deps.store;

    expect(await restoredStore.sessions.get(game.sessionId)).toMatchObject({ status: 'live', title: 'Test Night' });
    expect((await restoredStore.questions.get(q1.id))?.text).toBe('Who directed Jaws?');
    const players = await restoredStore.players.list();
    for (const p of game.players) expect(players.map((x) => x.id)).toContain(p.id);
    expect((await restoredStore.scores.listScores(game.sessionId)).map((s) => [s.name, s.pointsTotal])).toEqual(scoresBefore);
    expect((await restoredStore.scores.answersForAsking(game.sessionId, 1)).length).toBe(3);
    const served = await new MediaClient(restored.server).media(objectId);
    expect(served.status).toBe(200);
    expect(sha256(served.body)).toBe(sha256(png));

    // The live question resumes: the first player (answered before the backup) stays locked, the second can answer.
    const again = [await player(restored.server, game, 0), await player(restored.server, game, 1)];
    expect(again[0].messages[0]).toMatchObject({ phase: 'question', question: { id: q2.id }, answered: true, selectedIndex: 2 });
    expect(again[1].messages[0]).toMatchObject({ phase: 'question', question: { id: q2.id }, answered: false });
    const accepted = again[1].next('answer_accepted');
    again[1].send({ type: 'submit_answer', questionId: q2.id, selectedIndex: 2 });
    await accepted;
    await Promise.all(again.map((s) => s.close()));
  });

  it('refuses a folder that is not empty, and never writes into DATA_DIR', async () => {
    const dataDir = tempDir('data');
    const busy = tempDir('busy');
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    cleanup.push(() => fs.rmSync(busy, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dataDir, 'marquee.sqlite'), '');
    fs.writeFileSync(path.join(busy, 'keep.txt'), 'mine');
    const config = loadConfig({ DATA_DIR: dataDir });
    await expect(backup(config, busy)).rejects.toThrow(/not empty/);
    await expect(backup(config, dataDir)).rejects.toThrow(BackupError);
    expect(fs.readFileSync(path.join(busy, 'keep.txt'), 'utf8')).toBe('mine');
  });
});

describe('backing up a PostgreSQL set-up', () => {
  it('refuses and points to pg_dump, exit code 1, nothing written', async () => {
    const dir = path.join(tempDir('pg'), 'backup');
    const failed = await backupCommand(dir, { DATABASE_URL: TEST_DATABASE_URL, DATA_DIR: tempDir('pg-data') }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('Backup refused: DATABASE_URL is set');
    expect(failed?.stderr).toContain('pg_dump');
    expect(fs.existsSync(dir)).toBe(false);
  });
});

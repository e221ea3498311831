/**
 * Live moderation over real sockets (DESIGN §15): the host kicks, hides and renames players
 * during a game; displays get the new leaderboard, a kicked phone is closed with 4403 and cannot
 * come back, and its tokens open no other game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, REMOVED_BY_HOST } from '../../../protocol/index.js';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import type { TestApi } from '../../testing/api.js';
import { DIALECTS } from '../../testing/databases.js';
import type { TestServer } from '../../testing/server.js';
import { type AnyMessage, TestSocket } from './testing/client.js';
import { type Game, createGame, display, player, startGameServer } from './testing/setup.js';

const names = (m: AnyMessage) => m.leaderboard.map((e: any) => `${e.player.name}:${e.score.pointsTotal}`);

describe.each(DIALECTS)('live moderation on %s', (dialect) => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer;
  let api: TestApi;
  let game: Game;

  beforeAll(async () => {
    ({ server, api } = await startGameServer(dialect, clock));
    game = await createGame(server, api, {
      items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1, timeLimitSeconds: 20 } }, { question: { text: 'Year of Casablanca?', correctIndex: 2, timeLimitSeconds: 20 } }],
      players: 4,
    });
  });
  afterAll(() => server?.close());

  it('kicks, hides and renames during the game: every screen follows, the kicked phone stays out', async () => {
    const [q1, q2] = game.questions;
    const d = await display(server, game);
    const p: TestSocket[] = [];
    for (let i = 0; i < 4; i++) p.push(await player(server, game, i));
    const opened = d.next('session_state', (m) => m.phase === 'question');
    await api.post(`/api/admin/sessions/${game.sessionId}/start`);
    await opened;
    // Everyone answers question 1 correctly, a second apart: Player 1 leads.
    const ended = d.next('leaderboard_update');
    for (let i = 0; i < 4; i++) {
      await clock.advance(1_000);
      const accepted = p[i].next('answer_accepted');
      p[i].send({ type: 'submit_answer', questionId: q1.id, selectedIndex: 1 });
      await accepted;
    }
    const before = names(await ended);
    expect(before.map((n: string) => n.split(':')[0])).toEqual(['Player 1', 'Player 2', 'Player 3', 'Player 4']);

    // Question 2 opens; the host kicks the leader during it.
    const second = d.next('session_state', (m) => m.phase === 'question' && m.question.id === q2.id);
    const phase = () => server.server.realtime.rooms.get(game.sessionId)?.engineState?.phase;
    const secondOpen = () => phase()?.kind === 'question' && (phase() as { itemIndex: number }).itemIndex === 1;
    for (let s = 0; s < 60 && !secondOpen(); s++) await clock.advance(1_000);
    await second;
    const leader = game.players[0];
    const afterKick = d.next('leaderboard_update');
    const kick = await api.post(`/api/admin/sessions/${game.sessionId}/players/${leader.id}/kick`);
    expect(kick.status).toBe(204);
    expect(await p[0].closed).toEqual({ code: CLOSE_CODES.removed, reason: REMOVED_BY_HOST });
    expect(names(await afterKick).map((n: string) => n.split(':')[0])).toEqual(['Player 2', 'Player 3', 'Player 4']);

    // The kicked device cannot come back: not by socket, not by registering again (token or email).
    const again = await TestSocket.open(server.baseUrl, { type: 'player', sessionId: game.sessionId, playerId: leader.id, playerToken: leader.playerToken });
    expect(await again.closed).toEqual({ code: CLOSE_CODES.removed, reason: REMOVED_BY_HOST });
    const register = (body: Record<string, unknown>) => api.post('/api/player/register', { sessionId: game.sessionId, ...body });
    expect((await register({ name: 'Back', email: 'new-me@example.com', playerToken: leader.playerToken })).status).toBe(403);
    expect((await register({ name: 'Back', email: `p1-${game.sessionId}@example.com` })).status).toBe(403);

    // Rename: the name rules apply.
    const refused = await api.patch(`/api/admin/players/${game.players[1].id}`, { name: 'sh1t' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Please choose another name', reason: 'offensive' });
    const afterRename = d.next('leaderboard_update');
    const renamed = await api.patch(`/api/admin/players/${game.players[1].id}`, { name: '  Chloé  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: game.players[1].id, name: 'Chloé' });
    expect(names(await afterRename)[0]).toMatch(/^Chloé:/);
    // Hide: the screens show "Player {join order}" (Chloé joined second), and her name again when shown.
    const hide = async (hidden: boolean) => {
      const update = d.next('leaderboard_update');
      expect((await api.post(`/api/admin/sessions/${game.sessionId}/players/${game.players[1].id}/hide`, { hidden })).status).toBe(204);
      return names(await update)[0].split(':')[0];
    };
    expect(await hide(true)).toBe('Player 2');
    expect(await hide(false)).toBe('Chloé');

    // A display opened now sees the same standings, without the kicked player.
    const fresh = await display(server, game);
    expect(names(fresh.messages[0]).map((n: string) => n.split(':')[0])).toEqual(['Chloé', 'Player 3', 'Player 4']);
    // The question closes with the other three answering: the kicked player no longer holds it open.
    const closed = d.next('question_end');
    for (const i of [1, 2, 3]) {
      const accepted = p[i].next('answer_accepted');
      p[i].send({ type: 'submit_answer', questionId: q2.id, selectedIndex: 2 });
      await accepted;
    }
    await closed;
    for (const s of [d, fresh, ...p.slice(1)]) await s.close();
  });

  it('answers 404 for a player of another session and 400 for a bad body', async () => {
    const other = await createGame(server, api, { items: [], players: 1 });
    const stranger = other.players[0].id;
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/players/${stranger}/kick`)).status).toBe(404);
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/players/${stranger}/hide`, { hidden: true })).status).toBe(404);
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/players/${game.players[1].id}/hide`, { hidden: 'yes' })).status).toBe(400);
    // A token opens only the game it was issued for.
    const foreign = await TestSocket.open(server.baseUrl, { type: 'player', sessionId: game.sessionId, playerId: stranger, playerToken: other.players[0].playerToken });
    expect((await foreign.closed).code).toBe(CLOSE_CODES.unauthorized);
  });
});

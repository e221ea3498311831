import { describe, expect, it } from 'vitest';
import { CLOSE_CODES, ERROR_CODES, MAX_CLIENT_FRAME_BYTES, connectQuerySchema, packPathPick, parseClientMessage, parseDatagramMessage } from './index.js';

describe('parseClientMessage', () => {
  it('accepts a valid answer from a player', () => {
    expect(parseClientMessage('{"type":"submit_answer","questionId":"q1","selectedIndex":2}', 'player')).toEqual({
      ok: true,
      message: { type: 'submit_answer', questionId: 'q1', selectedIndex: 2 },
    });
  });

  it('accepts admin commands from an admin', () => {
    expect(parseClientMessage('{"type":"admin_next_question"}', 'admin')).toMatchObject({ ok: true });
    expect(parseClientMessage('{"type":"admin_pause"}', 'admin')).toMatchObject({ ok: true });
    expect(parseClientMessage('{"type":"admin_toggle_autorotate","autoRotate":false}', 'admin')).toEqual({
      ok: true,
      message: { type: 'admin_toggle_autorotate', autoRotate: false },
    });
  });

  it.each([
    ['not json', 'player', ERROR_CODES.invalidJson],
    ['[1,2]', 'player', ERROR_CODES.invalidMessage],
    ['"text"', 'player', ERROR_CODES.invalidMessage],
    ['{"type":"dance"}', 'player', ERROR_CODES.unknownType],
    ['{"questionId":"q1"}', 'player', ERROR_CODES.unknownType],
    ['{"type":"admin_next_question"}', 'player', ERROR_CODES.forbidden],
    ['{"type":"admin_pause"}', 'display', ERROR_CODES.forbidden],
    ['{"type":"submit_answer","questionId":"q1","selectedIndex":1}', 'admin', ERROR_CODES.forbidden],
    ['{"type":"submit_answer","questionId":"q1","selectedIndex":4}', 'player', ERROR_CODES.invalidMessage],
    ['{"type":"submit_answer","questionId":"q1","selectedIndex":-1}', 'player', ERROR_CODES.invalidMessage],
    ['{"type":"submit_answer","questionId":"q1","selectedIndex":"2"}', 'player', ERROR_CODES.invalidMessage],
    ['{"type":"submit_answer","selectedIndex":1}', 'player', ERROR_CODES.invalidMessage],
    ['{"type":"admin_toggle_autorotate"}', 'admin', ERROR_CODES.invalidMessage],
  ] as const)('refuses %s from a %s with %s', (raw, role, code) => {
    const result = parseClientMessage(raw, role);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.type).toBe('error');
      expect(result.error.code).toBe(code);
      expect(result.error.message.length).toBeGreaterThan(5);
    }
  });

  it('explains an out-of-range choice in words', () => {
    const result = parseClientMessage('{"type":"submit_answer","questionId":"q1","selectedIndex":7}', 'player');
    expect(result).toMatchObject({ ok: false, error: { message: 'Invalid submit_answer: selectedIndex: selectedIndex must be from 0 to 3' } });
  });
});

describe('packed picks on the datagram path', () => {
  const questionId = '0e1d6f8a-6c1b-4f7e-9a55-2f0c8b7d3e21';
  const open = (reference: string) => (questionId.startsWith(reference) ? questionId : reference);

  it('are about a ping in size and come back as the pick, the open question named in full', () => {
    const pick = { type: 'submit_answer' as const, questionId, selectedIndex: 2, answerId: 'k3j9x2mq0a', reactionMs: 4321 };
    const packed = packPathPick(pick);
    expect(packed).toBe('["p","0e1d6f8a",2,"k3j9x2mq0a",4321]');
    expect(parseDatagramMessage(packed, 'player', open)).toEqual({ ok: true, message: pick });
    // Without the optional fields (older clients' picks): still a pick.
    expect(parseDatagramMessage(packPathPick({ type: 'submit_answer', questionId, selectedIndex: 0 }), 'player', open)).toEqual({
      ok: true,
      message: { type: 'submit_answer', questionId, selectedIndex: 0 },
    });
    // A reference to another question stays as it is: the game refuses it as not the open one.
    expect(parseDatagramMessage('["p","ffffffff",1,"a",10]', 'player', open)).toMatchObject({ ok: true, message: { questionId: 'ffffffff' } });
    // Other messages on the path are parsed as on the socket.
    expect(parseDatagramMessage('{"type":"ping","id":3}', 'player', open)).toEqual({ ok: true, message: { type: 'ping', id: 3 } });
  });

  it.each([
    ['["p","0e1d6f8a",2,"a"]', /A packed pick is/],
    ['["q","0e1d6f8a",2,"a",1]', /A packed pick is/],
    ['["p","",2,"a",1]', /A packed pick is/],
    ['["p","0e1d6f8a-6c1b",2,"a",1]', /A packed pick is/],
    ['["p",17,2,"a",1]', /A packed pick is/],
    ['["p","0e1d6f8a",7,"a",1]', /selectedIndex must be from 0 to 3/],
    ['["p","0e1d6f8a",1,"a",-5]', /reactionMs must not be negative/],
    ['["p","0e1d6f8a",1,"",1]', /answerId must not be empty/],
  ])('refuses %s with a message', (raw, message) => {
    const result = parseDatagramMessage(raw, 'player', open);
    expect(result).toMatchObject({ ok: false, error: { type: 'error', code: ERROR_CODES.invalidMessage } });
    if (!result.ok) expect(result.error.message).toMatch(message);
  });

  it('checks the role as on the socket: only a player sends picks', () => {
    expect(parseDatagramMessage('["p","0e1d6f8a",1,"a",1]', 'display', open)).toMatchObject({ ok: false, error: { code: ERROR_CODES.forbidden } });
  });
});

describe('connection query', () => {
  it('requires a token for admins and a player token for players', () => {
    expect(connectQuerySchema.safeParse({ type: 'display', sessionId: 's' }).success).toBe(true);
    expect(connectQuerySchema.safeParse({ type: 'admin', sessionId: 's' }).success).toBe(false);
    expect(connectQuerySchema.safeParse({ type: 'player', sessionId: 's', playerId: 'p' }).success).toBe(false);
    expect(connectQuerySchema.safeParse({ type: 'player', sessionId: 's', playerId: 'p', playerToken: 't' }).success).toBe(true);
    expect(connectQuerySchema.safeParse({ type: 'spectator', sessionId: 's' }).success).toBe(false);
  });

  it('keeps the agreed close codes and frame limit', () => {
    expect(CLOSE_CODES.unauthorized).toBe(4401);
    expect(CLOSE_CODES.notFound).toBe(4404);
    expect(MAX_CLIENT_FRAME_BYTES).toBe(16_384);
  });
});

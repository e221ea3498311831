import { describe, expect, it } from 'vitest';
import { CLOSE_CODES, ERROR_CODES, MAX_CLIENT_FRAME_BYTES, connectQuerySchema, parseClientMessage } from './index.js';

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

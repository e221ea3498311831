/**
 * Who is connecting to /ws. Checked before the socket joins a room; a refusal completes the
 * handshake and closes at once with a 44xx code and a reason the client can show or act on
 * (a browser cannot read an HTTP status of a refused upgrade).
 */
import { CLIENT_ROLES, CLOSE_CODES, type ClientRole } from '../../protocol/index.js';
import type { AdminAuth } from '../auth/admin-auth.js';
import { hashToken } from '../auth/passwords.js';
import type { Store } from '../storage/store.js';

export type ConnectionAuth =
  | { ok: true; sessionId: string; role: ClientRole; playerId: string | null; name: string | null }
  | { ok: false; code: number; reason: string };

export interface AuthDeps {
  store: Store;
  adminAuth: AdminAuth;
}

const MAX_ID_LENGTH = 200;

function refuse(code: number, reason: string): ConnectionAuth {
  return { ok: false, code, reason };
}

export async function authenticateConnection(query: URLSearchParams, { store, adminAuth }: AuthDeps): Promise<ConnectionAuth> {
  const sessionId = query.get('sessionId') ?? '';
  const type = query.get('type') ?? '';
  if (!sessionId || sessionId.length > MAX_ID_LENGTH) return refuse(CLOSE_CODES.badRequest, 'sessionId is required');
  if (!(CLIENT_ROLES as readonly string[]).includes(type)) return refuse(CLOSE_CODES.badRequest, 'type must be admin, display or player');
  const role = type as ClientRole;

  // Admins prove themselves before learning whether a session exists.
  if (role === 'admin' && !(await adminAuth.verify(query.get('token') ?? undefined))) {
    return refuse(CLOSE_CODES.unauthorized, 'Admin token missing, invalid or expired');
  }
  if (!(await store.sessions.get(sessionId))) return refuse(CLOSE_CODES.notFound, 'Session not found');
  if (role !== 'player') return { ok: true, sessionId, role, playerId: null, name: null };

  const playerId = query.get('playerId') ?? '';
  const playerToken = query.get('playerToken') ?? '';
  if (!playerId || !playerToken || playerId.length > MAX_ID_LENGTH || playerToken.length > MAX_ID_LENGTH) {
    return refuse(CLOSE_CODES.unauthorized, 'playerId and playerToken are required');
  }
  if (!(await store.players.get(playerId))) return refuse(CLOSE_CODES.notFound, 'Player not found');
  const player = await store.players.verifyToken(playerId, hashToken(playerToken));
  if (!player) return refuse(CLOSE_CODES.unauthorized, 'Invalid player token');
  return { ok: true, sessionId, role, playerId: player.id, name: player.name };
}

/**
 * Who is connecting to /ws. Checked before the socket joins a room; a refusal completes the
 * handshake and closes at once with a 44xx code and a reason the client can show or act on
 * (a browser cannot read an HTTP status of a refused upgrade).
 */
import { CLIENT_ROLES, CLOSE_CODES, type ClientRole, connectQuerySchema, REMOVED_BY_HOST } from '../../../protocol/index.js';
import { screenName } from '../../storage/players.js';
import type { AdminAuth } from '../../domain/auth/admin-auth.js';
import { hashToken } from '../../domain/auth/passwords.js';
import { storageFaultCause } from '../../storage/faults.js';
import type { Store } from '../../storage/store.js';
import type { KnownPlayers } from './known-players.js';

export type ConnectionAuth =
  | { ok: true; sessionId: string; role: ClientRole; playerId: string | null; name: string | null; adminToken?: AdminTokenInfo }
  | { ok: false; code: number; reason: string };

/** An admin socket's token: it closes when the token is revoked or expires (admin-sockets.ts). */
export interface AdminTokenInfo {
  hash: string;
  expiresAtMs: number;
}

export interface AuthDeps {
  store: Store;
  adminAuth: AdminAuth;
  /** Phones already let in here: who may come back while the database is down (known-players.ts). */
  knownPlayers?: KnownPlayers;
}

const MAX_ID_LENGTH = 200;

/** Too long, or with a NUL (PostgreSQL text cannot hold one, and the lookup would fail): names nothing. */
const unusableId = (id: string) => id.length > MAX_ID_LENGTH || id.includes('\0');

function refuse(code: number, reason: string): ConnectionAuth {
  return { ok: false, code, reason };
}

/** Why the query failed the protocol schema, as a close code: missing credentials are a 4401. */
function queryRefusal(raw: Record<string, string>, issue: string): ConnectionAuth {
  if (raw.type === 'admin' && raw.sessionId && !raw.token) return refuse(CLOSE_CODES.unauthorized, 'Admin token missing, invalid or expired');
  if (raw.type === 'player' && raw.sessionId && (!raw.playerId || !raw.playerToken)) {
    return refuse(CLOSE_CODES.unauthorized, 'playerId and playerToken are required');
  }
  if (!(CLIENT_ROLES as readonly string[]).includes(raw.type)) return refuse(CLOSE_CODES.badRequest, 'type must be admin, display or player');
  return refuse(CLOSE_CODES.badRequest, issue);
}

export async function authenticateConnection(query: URLSearchParams, { store, adminAuth, knownPlayers }: AuthDeps): Promise<ConnectionAuth> {
  const raw = Object.fromEntries(query);
  const parsed = connectQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return queryRefusal(raw, `Invalid connection query: ${first ? `${first.path.join('.')} ${first.message}` : 'malformed'}`);
  }
  const connect = parsed.data;
  if (unusableId(connect.sessionId)) return refuse(CLOSE_CODES.notFound, 'Session not found');

  // Admins prove themselves before learning whether a session exists.
  let adminToken: AdminTokenInfo | undefined;
  if (connect.type === 'admin') {
    const admin = await adminAuth.verifySession(connect.token);
    if (!admin) return refuse(CLOSE_CODES.unauthorized, 'Admin token missing, invalid or expired');
    adminToken = { hash: admin.tokenHash, expiresAtMs: admin.expiresAtMs };
  }
  const outage = (err: unknown) => knownPlayers !== undefined && storageFaultCause(err) !== undefined;
  // While the database is down (DESIGN §16), a session this instance has let phones into is known to exist.
  const sessionKnown = () => knownPlayers?.hasSession(connect.sessionId) === true;
  const sessionExists = async (): Promise<boolean> => {
    if (store.handle.health.isDown && sessionKnown()) return true;
    try {
      return (await store.sessions.get(connect.sessionId)) !== undefined;
    } catch (err) {
      if (!outage(err) || !sessionKnown()) throw err;
      return true;
    }
  };
  const sessionNotFound = () => refuse(CLOSE_CODES.notFound, 'Session not found');
  if (connect.type !== 'player') {
    if (!(await sessionExists())) return sessionNotFound();
    return { ok: true, sessionId: connect.sessionId, role: connect.type, playerId: null, name: null, adminToken };
  }

  // A phone's session is read only when its token does not let it in: a token is stored against its
  // session, so one that checks out proves the session exists (one read a phone in a reconnect storm).
  const { playerId, playerToken } = connect;
  if (unusableId(playerId) || playerToken.length > MAX_ID_LENGTH) {
    return (await sessionExists()) ? refuse(CLOSE_CODES.unauthorized, 'Invalid player token') : sessionNotFound();
  }
  const tokenHash = hashToken(playerToken);
  const accept = (player: { id: string; name: string }): ConnectionAuth => ({ ok: true, sessionId: connect.sessionId, role: 'player', playerId: player.id, name: player.name });
  // Storage down: a phone coming back with the token it was let in with is checked here, without a read.
  const known = store.handle.health.isDown ? knownPlayers?.check(connect.sessionId, playerId, tokenHash) : undefined;
  if (known) return accept(known);
  let check;
  try {
    // Checked against this session: a token opens only the game it was issued for (DESIGN §15).
    check = await store.players.checkToken(playerId, tokenHash, connect.sessionId);
  } catch (err) {
    const fallback = outage(err) ? knownPlayers?.check(connect.sessionId, playerId, tokenHash) : undefined;
    if (!fallback) throw err;
    return accept(fallback);
  }
  if (!check.ok) {
    if (check.why === 'kicked') return refuse(CLOSE_CODES.removed, REMOVED_BY_HOST);
    if (check.why === 'expired') return refuse(CLOSE_CODES.unauthorized, 'Player token expired');
    if (!(await sessionExists())) return sessionNotFound();
    return (await store.players.get(playerId)) ? refuse(CLOSE_CODES.unauthorized, 'Invalid player token') : refuse(CLOSE_CODES.notFound, 'Player not found');
  }
  const player = { id: check.player.id, name: screenName(check.player) };
  knownPlayers?.remember(connect.sessionId, tokenHash, player);
  return accept(player);
}

/**
 * Registering a phone in a session (DESIGN §5, §6, §15): the per-address limit, the name rules
 * or a generated nickname, the session's cap, and who may come back as which player. Returns the
 * player with the token the device must keep; refusals are DomainErrors with the contract's texts.
 */
import { hashToken, newToken } from '../auth/passwords.js';
import { DomainError } from '../../errors.js';
import type { Session } from '../../storage/sessions.js';
import type { Player } from '../../storage/players.js';
import type { Store } from '../../storage/store.js';
import type { BurstWatch } from './bursts.js';
import { checkName, NAME_REFUSED_MESSAGE } from './names.js';
import { generateNickname } from './nicknames.js';
import type { RegistrationThrottle } from './rate-limit.js';

export const GAME_FULL_MESSAGE = 'This game is full';
export const EMAIL_PLAYING_MESSAGE = 'This email is already playing in this game';
export const REMOVED_MESSAGE = 'You were removed from this game by the host';
export const TOO_MANY_MESSAGE = 'Too many players joined from this network just now. Please try again in a moment.';

export interface RegisterRequest {
  session: Session;
  name: string;
  email: string;
  /** The token this device already holds, if any. */
  playerToken: string | null;
  /** The address the server believes the request came from. */
  address: string;
}

export interface RegistrationDeps {
  store: Store;
  limiter: RegistrationThrottle;
  bursts: BurstWatch;
}

export async function registerPlayer(deps: RegistrationDeps, request: RegisterRequest): Promise<{ player: Player; playerToken: string; created: boolean }> {
  const { session } = request;
  let name: string;
  if (session.nicknames === 'generated') {
    name = generateNickname();
  } else {
    const check = checkName(request.name);
    if (!check.ok) throw DomainError.invalid(NAME_REFUSED_MESSAGE, { reason: check.reason });
    name = check.name;
  }
  const waitSeconds = await deps.limiter.take(request.address);
  if (waitSeconds !== null) {
    deps.bursts.refused(session.id, request.address);
    throw DomainError.rateLimited(TOO_MANY_MESSAGE, waitSeconds);
  }
  const { token, hash } = newToken();
  let created = false;
  try {
    const outcome = await deps.store.players.register({
      sessionId: session.id,
      name,
      email: request.email,
      tokenHash: hash,
      heldTokenHash: request.playerToken ? hashToken(request.playerToken) : null,
      maxPlayers: session.maxPlayers,
    });
    switch (outcome.kind) {
      case 'created':
        created = true;
        return { player: outcome.player, playerToken: token, created };
      case 'returning':
        return { player: outcome.player, playerToken: request.playerToken!, created };
      case 'full':
        throw DomainError.conflict(GAME_FULL_MESSAGE);
      case 'email_taken':
        throw DomainError.conflict(EMAIL_PLAYING_MESSAGE);
      case 'kicked':
        throw DomainError.forbidden(REMOVED_MESSAGE, { removed: true });
      default:
        return outcome satisfies never;
    }
  } finally {
    // Only a new player counts against the address.
    if (!created) await deps.limiter.giveBack(request.address);
  }
}

/** Player join validation (SPEC §5): both fields required and trimmed, name ≤ 50, a valid email. */
export const PLAYER_NAME_MAX = 50;

export interface JoinFields {
  name: string;
  email: string;
}

export type JoinErrors = Partial<Record<keyof JoinFields, string>>;

// One @, something on each side, a dot in the domain, no spaces: what phones' email keyboards
// produce; the server applies the full check.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateJoin(fields: JoinFields): { values: JoinFields; errors: JoinErrors } {
  const values = { name: fields.name.trim(), email: fields.email.trim() };
  const errors: JoinErrors = {};
  if (!values.name) errors.name = 'Please enter your name';
  else if (values.name.length > PLAYER_NAME_MAX) errors.name = `Name must be at most ${PLAYER_NAME_MAX} characters`;
  if (!values.email) errors.email = 'Please enter your email address';
  else if (!EMAIL_PATTERN.test(values.email)) errors.email = 'Please enter a valid email address';
  return { values, errors };
}

/** The signed-link parameters `t` and `sig` (SPEC §4 "Player join"); null unless both are there. */
export function linkSignature(search: string): { timestamp: number | string; signature: string } | null {
  const params = new URLSearchParams(search);
  const t = params.get('t');
  const sig = params.get('sig');
  if (!t || !sig) return null;
  const asNumber = Number(t);
  return { timestamp: Number.isSafeInteger(asNumber) ? asNumber : t, signature: sig };
}

export const JOIN_FAILED_MESSAGE = 'Failed to join session. Please try again.';
export const VALIDATION_NETWORK_MESSAGE = 'Unable to validate access. Please scan the QR code at the theater.';

/** The failure answer of `POST /api/player/register`: `{ message, returnToTheater? }`. */
export function parseJoinFailure(bodyText: string | undefined): { message?: string; returnToTheater: boolean } {
  if (!bodyText) return { returnToTheater: false };
  try {
    const body = JSON.parse(bodyText) as { message?: unknown; returnToTheater?: unknown };
    return {
      message: typeof body.message === 'string' && body.message ? body.message : undefined,
      returnToTheater: body.returnToTheater === true,
    };
  } catch {
    return { returnToTheater: false };
  }
}

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

/** What to do about a refused name (DESIGN §15 `reason`), shown under the name field. */
export const NAME_REFUSAL_HINTS: Record<string, string> = {
  offensive: 'This name can’t be shown on the big screen. Please choose another name.',
  reserved: 'Names that look like the host’s or staff’s can’t be used. Please choose another name.',
  link: 'Web addresses can’t be used as names. Please choose another name.',
  empty: 'Please choose another name, with some letters in it.',
};

/** The failure answer of `POST /api/player/register`: `{ message, returnToTheater?, reason?, removed? }`. */
export function parseJoinFailure(bodyText: string | undefined): { message?: string; returnToTheater: boolean; nameHint?: string; removed?: boolean } {
  if (!bodyText) return { returnToTheater: false };
  try {
    const body = JSON.parse(bodyText) as { message?: unknown; returnToTheater?: unknown; reason?: unknown; removed?: unknown };
    return {
      message: typeof body.message === 'string' && body.message ? body.message : undefined,
      // A refused name answers with its reason: the form says what to do about it.
      returnToTheater: body.returnToTheater === true || body.removed === true,
      nameHint: typeof body.reason === 'string' ? (NAME_REFUSAL_HINTS[body.reason] ?? NAME_REFUSAL_HINTS.empty) : undefined,
    };
  } catch {
    return { returnToTheater: false };
  }
}

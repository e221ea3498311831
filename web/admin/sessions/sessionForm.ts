import type { Session } from '../types';

/** The Create/Edit Session form as typed by the operator; everything a string until sent. */
export interface SessionFormValues {
  title: string;
  auditoriumId: string; // '' = none
  startsAt: string; // datetime-local value, '' = none
  autoRotate: boolean;
  mediaItemsPerTransition: string;
  returnMessage: string;
  prizeDrawEnabled: boolean;
  prize: string;
  consentText: string;
  maxPlayers: string;
  /** DESIGN §15: players type their name (filtered), or the server names them. */
  generatedNicknames: boolean;
}

/** DESIGN §15: 1 to 100,000 registrations per session, 2,000 unless set. */
export const DEFAULT_MAX_PLAYERS = 2000;
export function parseMaxPlayers(raw: string): number {
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 && value <= 100_000 ? value : DEFAULT_MAX_PLAYERS;
}

/** What the consent box says unless the operator words it otherwise (docs/PRIVACY.md). */
export const DEFAULT_CONSENT_TEXT =
  "Enter me in tonight's prize draw. If I win, the cinema may email me about the prize. My email is not used for anything else.";

export const EMPTY_SESSION_FORM: SessionFormValues = {
  title: '',
  auditoriumId: '',
  startsAt: '',
  autoRotate: true,
  mediaItemsPerTransition: '1',
  returnMessage: '',
  prizeDrawEnabled: false,
  prize: '',
  consentText: DEFAULT_CONSENT_TEXT,
  maxPlayers: String(DEFAULT_MAX_PLAYERS),
  generatedNicknames: false,
};

/** ISO instant → the local "YYYY-MM-DDTHH:mm" a datetime-local input shows. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export function formFromSession(session: Session): SessionFormValues {
  return {
    title: session.title,
    auditoriumId: session.auditoriumId ?? '',
    startsAt: toLocalInput(session.startsAt),
    autoRotate: session.autoRotate,
    mediaItemsPerTransition: String(session.mediaItemsPerTransition ?? 1),
    returnMessage: session.returnMessage ?? '',
    prizeDrawEnabled: session.prizeDraw?.enabled ?? false,
    prize: session.prizeDraw?.prize ?? '',
    consentText: session.prizeDraw?.consentText || DEFAULT_CONSENT_TEXT,
    maxPlayers: String(session.maxPlayers ?? DEFAULT_MAX_PLAYERS),
    generatedNicknames: session.nicknames === 'generated',
  };
}

/** A draw that is on needs a prize and a consent text; one that is off needs nothing. */
export function prizeDrawComplete(values: SessionFormValues): boolean {
  return !values.prizeDrawEnabled || (values.prize.trim().length > 0 && values.consentText.trim().length > 0);
}

function prizeDrawBody(values: SessionFormValues) {
  return { enabled: values.prizeDrawEnabled, prize: values.prize.trim(), consentText: values.consentText.trim() };
}

/** SPEC §5: a number from 1 to 10, 1 when the input is empty or invalid. */
export function parseMediaItemsPerTransition(raw: string): number {
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 && value <= 10 ? value : 1;
}

function startsAtIso(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Create: empty optional values are left out (SPEC §5). */
export function createBody(values: SessionFormValues) {
  const body: Record<string, unknown> = {
    title: values.title.trim(),
    autoRotate: values.autoRotate,
    mediaItemsPerTransition: parseMediaItemsPerTransition(values.mediaItemsPerTransition),
    maxPlayers: parseMaxPlayers(values.maxPlayers),
    nicknames: values.generatedNicknames ? 'generated' : 'free',
  };
  if (values.auditoriumId) body.auditoriumId = values.auditoriumId;
  const startsAt = startsAtIso(values.startsAt);
  if (startsAt) body.startsAt = startsAt;
  if (values.returnMessage.trim()) body.returnMessage = values.returnMessage.trim();
  if (values.prizeDrawEnabled) body.prizeDraw = prizeDrawBody(values);
  return body;
}

/** Update: an empty auditorium or start time is sent as null so the server clears it (SPEC §5). */
export function updateBody(values: SessionFormValues) {
  return {
    title: values.title.trim(),
    auditoriumId: values.auditoriumId || null,
    startsAt: startsAtIso(values.startsAt) ?? null,
    autoRotate: values.autoRotate,
    mediaItemsPerTransition: parseMediaItemsPerTransition(values.mediaItemsPerTransition),
    returnMessage: values.returnMessage.trim() || null,
    prizeDraw: prizeDrawBody(values),
    maxPlayers: parseMaxPlayers(values.maxPlayers),
    nicknames: values.generatedNicknames ? 'generated' : 'free',
  };
}

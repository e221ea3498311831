import type { Session } from '../types';

/** The Create/Edit Session form as typed by the operator; everything a string until sent. */
export interface SessionFormValues {
  title: string;
  auditoriumId: string; // '' = none
  startsAt: string; // datetime-local value, '' = none
  autoRotate: boolean;
  mediaItemsPerTransition: string;
  returnMessage: string;
}

export const EMPTY_SESSION_FORM: SessionFormValues = {
  title: '',
  auditoriumId: '',
  startsAt: '',
  autoRotate: true,
  mediaItemsPerTransition: '1',
  returnMessage: '',
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
  };
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
  };
  if (values.auditoriumId) body.auditoriumId = values.auditoriumId;
  const startsAt = startsAtIso(values.startsAt);
  if (startsAt) body.startsAt = startsAt;
  if (values.returnMessage.trim()) body.returnMessage = values.returnMessage.trim();
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
  };
}

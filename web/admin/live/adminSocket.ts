import type {
  AdminNextQuestionMessage,
  AdminPauseMessage,
  AdminSessionInfo,
  AdminToggleAutorotateMessage,
  ServerMessage,
} from '../../../protocol/index';
import type { SessionItem } from '../../../protocol/api';

export type AdminServerMessage = ServerMessage;
export type AdminClientMessage = AdminNextQuestionMessage | AdminPauseMessage | AdminToggleAutorotateMessage;

/** 'Question {n} of {total}', or 'No active question' (SPEC §2). */
export function liveCounterText(info: AdminSessionInfo | undefined): string {
  if (!info || info.currentQuestionIndex === null || info.currentQuestionIndex === undefined) return 'No active question';
  return `Question ${info.currentQuestionIndex + 1} of ${info.totalQuestions}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** '3 phones in the game' (docs/SCREENS.md). */
export const phonesText = (n: number) => `${plural(n, 'phone', 'phones')} in the game`;
/** '1 display connected'. */
export const displaysText = (n: number) => `${plural(n, 'display', 'displays')} connected`;
/** '142 / 180 answered' (the wording). */
export const answeredText = (answered: number, players: number) => `${answered} / ${players} answered`;

/** The per-address registration limit refused players (DESIGN §15): the sign of a bot or a script. */
export const registrationBurstText = (burst: { refused: number; addresses: number }) =>
  `Registration burst: ${plural(burst.refused, 'registration', 'registrations')} refused in the last minute from ${plural(burst.addresses, 'address', 'addresses')}`;

/** How Live Controls name an item of the session: the question's text, or the slide's or block's kind. */
export function itemLabel(item: SessionItem | undefined): string {
  if (!item) return '—';
  if (item.itemType === 'question') return item.question?.text ?? 'Question';
  if (item.itemType === 'slide') {
    const type = item.slideType ?? 'intro';
    return `${type.charAt(0).toUpperCase()}${type.slice(1)} Slide`;
  }
  return `Media Block (${item.mediaItemCount ?? 1})`;
}

/** The item on now and the one after it (the game loops to the first item after the last). */
export function currentAndNext(items: SessionItem[], currentItemIndex: number | null): { current: string; next: string } {
  if (items.length === 0) return { current: '—', next: '—' };
  if (currentItemIndex === null) return { current: '—', next: itemLabel(items[0]) };
  return { current: itemLabel(items[currentItemIndex]), next: itemLabel(items[(currentItemIndex + 1) % items.length]) };
}

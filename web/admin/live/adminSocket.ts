import type {
  AdminNextQuestionMessage,
  AdminPauseMessage,
  AdminSessionInfo,
  AdminToggleAutorotateMessage,
  ServerMessage,
} from '../../../protocol/index';

export type AdminServerMessage = ServerMessage;
export type AdminClientMessage = AdminNextQuestionMessage | AdminPauseMessage | AdminToggleAutorotateMessage;

/** 'Question {n} of {total}', or 'No active question' (SPEC §2). */
export function liveCounterText(info: AdminSessionInfo | undefined): string {
  if (!info || info.currentQuestionIndex === null || info.currentQuestionIndex === undefined) return 'No active question';
  return `Question ${info.currentQuestionIndex + 1} of ${info.totalQuestions}`;
}

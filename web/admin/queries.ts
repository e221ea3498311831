import { useQuery } from '@tanstack/react-query';
import type { Auditorium, Media, Player, Question, Session, SessionItem, SessionMediaLink, SessionQuestionLink } from './types';

// Query keys double as URLs (see queryClient.ts); the constants keep invalidation and reading in step.
export const keys = {
  sessions: ['/api/admin/sessions'] as const,
  sessionItems: (id: string) => ['/api/admin/sessions', id, 'items'] as const,
  sessionQuestions: (id: string) => ['/api/admin/sessions', id, 'questions'] as const,
  sessionMedia: (id: string) => ['/api/admin/sessions', id, 'media'] as const,
  auditoriums: ['/api/admin/auditoriums'] as const,
  showtimes: (auditoriumId: string) => ['/api/admin/auditoriums', auditoriumId, 'showtimes'] as const,
  questions: ['/api/admin/questions'] as const,
  questionsFor: (sessionId?: string) => ['/api/admin/questions', { sessionId }] as const,
  players: ['/api/admin/players'] as const,
  adminMedia: ['/api/admin/media'] as const,
  mediaLibrary: ['/api/media'] as const,
  publicUrl: ['/api/public-url'] as const,
  /** A big screen's address with its display key (DESIGN §15). */
  sessionScreenLink: (id: string) => ['/api/admin/sessions', id, 'screen-link'] as const,
  auditoriumScreenLink: (id: string) => ['/api/admin/auditoriums', id, 'screen-link'] as const,
  /** A fresh signed join link (the Player QR Code dialog). */
  joinUrl: (id: string) => ['/api/sessions', id, 'join-url'] as const,
};

export const useSessions = () => useQuery<Session[]>({ queryKey: keys.sessions });
export const useAuditoriums = () => useQuery<Auditorium[]>({ queryKey: keys.auditoriums });
export const useSessionItems = (id: string) => useQuery<SessionItem[]>({ queryKey: keys.sessionItems(id) });
export const useSessionQuestions = (id: string) =>
  useQuery<SessionQuestionLink[]>({ queryKey: keys.sessionQuestions(id) });
export const useQuestions = (sessionId?: string) => useQuery<Question[]>({ queryKey: keys.questionsFor(sessionId) });
export const usePlayers = () => useQuery<Player[]>({ queryKey: keys.players });
export const useAdminMediaList = () => useQuery<Media[]>({ queryKey: keys.adminMedia });
export const useMediaLibrary = () => useQuery<Media[]>({ queryKey: keys.mediaLibrary });
export const useSessionMedia = (id: string, enabled = true) =>
  useQuery<SessionMediaLink[]>({ queryKey: keys.sessionMedia(id), enabled });

import type { Theme } from '../common/theme';

// JSON shapes of DESIGN §2 and the brief, as the admin receives them.
export type SessionStatus = 'draft' | 'scheduled' | 'live' | 'finished';

export interface Session {
  id: string;
  title: string;
  status: SessionStatus;
  createdAt: string;
  auditoriumId: string | null;
  startsAt: string | null;
  autoRotate: boolean;
  mediaItemsPerTransition: number;
  returnMessage: string | null;
  currentQuestionIndex: number;
  theme: Theme | string | null;
}

export type SlideType = 'intro' | 'rules' | 'break' | 'leaderboard' | 'join';
export type ItemType = 'question' | 'slide' | 'media_block';

export interface SessionItem {
  id: string;
  sessionId: string;
  orderIndex: number;
  itemType: ItemType;
  questionId: string | null;
  question: { id: string; text: string; categories: string[]; points: number; timeLimitSeconds: number } | null;
  slideType: SlideType | null;
  slideData: { text?: string } | null;
  mediaItemCount: number | null;
}

export interface SessionQuestionLink {
  questionId: string;
  sessionId: string;
  orderIndex: number;
}

export interface Question {
  id: string;
  text: string;
  choices: string[];
  correctIndex: number;
  points: number;
  timeLimitSeconds: number;
  categories: string[];
  mediaId: string | null;
  createdAt: string;
}

export interface Player {
  id: string;
  name: string;
  email: string;
  createdAt: string;
}

export interface Auditorium {
  id: string;
  name: string;
  createdAt: string;
}

export interface Media {
  id: string;
  filePath: string;
  phoneFilePath: string | null;
  fileType: string;
  duration: number;
  promotionalLink: string | null;
  createdAt: string;
}

export interface SessionMediaLink {
  mediaId: string;
  sessionId?: string;
}

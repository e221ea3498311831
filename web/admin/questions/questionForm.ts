import type { Question } from '../types';

export const DEFAULT_POINTS = 10;
export const MIN_POINTS = 1;
export const DEFAULT_TIME_LIMIT_SECONDS = 30;
export const MIN_TIME_LIMIT_SECONDS = 5;

export interface QuestionFormValues {
  text: string;
  choices: [string, string, string, string];
  correctIndex: number;
  categories: string[];
  mediaId: string | null;
  points: string;
  timeLimitSeconds: string;
}

export const EMPTY_QUESTION_FORM: QuestionFormValues = {
  text: '',
  choices: ['', '', '', ''],
  correctIndex: 0,
  categories: [],
  mediaId: null,
  points: String(DEFAULT_POINTS),
  timeLimitSeconds: String(DEFAULT_TIME_LIMIT_SECONDS),
};

export function formFromQuestion(q: Question): QuestionFormValues {
  const choices = [0, 1, 2, 3].map((i) => q.choices[i] ?? '') as QuestionFormValues['choices'];
  return {
    text: q.text,
    choices,
    correctIndex: q.correctIndex,
    categories: [...q.categories],
    mediaId: q.mediaId,
    points: String(q.points),
    timeLimitSeconds: String(q.timeLimitSeconds),
  };
}

/** Adds a trimmed, non-empty category once (SPEC §5). */
export function addCategory(categories: string[], raw: string): string[] {
  const value = raw.trim();
  return value && !categories.includes(value) ? [...categories, value] : categories;
}

function atLeast(raw: string, min: number, fallback: number): number {
  const value = Math.round(Number(raw));
  if (!raw.trim() || Number.isNaN(value)) return fallback;
  return Math.max(min, value);
}

/** The request body, or null when text or a choice is blank ('Please fill in all fields'). */
export function questionBody(values: QuestionFormValues) {
  const text = values.text.trim();
  const choices = values.choices.map((c) => c.trim());
  if (!text || choices.some((c) => !c)) return null;
  return {
    text,
    choices,
    correctIndex: values.correctIndex,
    points: atLeast(values.points, MIN_POINTS, DEFAULT_POINTS),
    timeLimitSeconds: atLeast(values.timeLimitSeconds, MIN_TIME_LIMIT_SECONDS, DEFAULT_TIME_LIMIT_SECONDS),
    categories: values.categories.map((c) => c.trim()).filter((c, i, all) => c && all.indexOf(c) === i),
    mediaId: values.mediaId ?? null,
  };
}

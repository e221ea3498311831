/**
 * The "Marquee Demo" show a newcomer finds on the first start (DESIGN §11): original film-trivia
 * questions (written for Marquee; facts checked), the four slide kinds a real show opens and
 * closes with, and a dark-and-gold theme (the "Elegant Gold" preset).
 */
import { ELEGANT_GOLD_THEME, type Theme } from '../../../protocol/api.js';
import type { ImportedQuestion } from '../questions/import-rules.js';

export const DEMO_TITLE = 'Marquee Demo';

export const DEMO_THEME: Theme = ELEGANT_GOLD_THEME;

const q = (text: string, choices: [string, string, string, string], correctIndex: number, categories: string[]): ImportedQuestion => ({
  text,
  choices,
  correctIndex,
  points: 100,
  timeLimitSeconds: 20,
  categories: ['Demo', ...categories],
});

export const DEMO_QUESTIONS: ImportedQuestion[] = [
  q('Which 1975 Steven Spielberg thriller made a whole summer of beachgoers nervous about the water?', ['Jaws', 'Duel', 'The Abyss', 'Piranha'], 0, ['Blockbusters']),
  q('In the 1939 film "The Wizard of Oz", what are Dorothy\'s magic slippers made to look like?', ['Glass', 'Silver', 'Rubies', 'Emeralds'], 2, ['Classics']),
  q('Which film, released in 1997, was the first to take more than one billion dollars at the worldwide box office?', ['Jurassic Park', 'Titanic', 'The Lion King', 'Independence Day'], 1, ['Box office']),
  q('Which studio made "Toy Story" (1995), the first feature film animated entirely by computer?', ['DreamWorks', 'Studio Ghibli', 'Aardman', 'Pixar'], 3, ['Animation']),
  q('In "Back to the Future", how fast must the DeLorean go to travel through time?', ['55 miles per hour', '88 miles per hour', '100 miles per hour', '121 miles per hour'], 1, ['Sci-fi']),
  q('Who composed the music for the original "Star Wars" (1977)?', ['John Williams', 'Hans Zimmer', 'Ennio Morricone', 'Howard Shore'], 0, ['Music']),
  q('Which film was the first not in English to win the Academy Award for Best Picture?', ['Roma', 'Amélie', 'Parasite', 'Crouching Tiger, Hidden Dragon'], 2, ['Awards']),
  q('In "The Matrix" (1999), which colour is the pill Neo swallows?', ['Blue', 'Green', 'Yellow', 'Red'], 3, ['Sci-fi']),
  q('Which actor plays the title role in Tim Burton\'s "Edward Scissorhands" (1990)?', ['Johnny Depp', 'Keanu Reeves', 'Nicolas Cage', 'Brad Pitt'], 0, ['Actors']),
  q('What is the name of the snowbound hotel in Stanley Kubrick\'s "The Shining"?', ['The Bates Motel', 'The Overlook Hotel', 'The Grand Budapest Hotel', 'The Timberline Lodge'], 1, ['Horror']),
];

export type DemoItem = { kind: 'slide'; slideType: 'intro' | 'rules' | 'join' | 'leaderboard'; text?: string } | { kind: 'question'; index: number };

/** The running order: welcome, join, rules, half the questions, standings, the rest, final standings. */
export const DEMO_ITEMS: DemoItem[] = [
  { kind: 'slide', slideType: 'intro' },
  { kind: 'slide', slideType: 'join', text: 'Scan to join the Marquee Demo!' },
  { kind: 'slide', slideType: 'rules' },
  ...[0, 1, 2, 3, 4].map((index): DemoItem => ({ kind: 'question', index })),
  { kind: 'slide', slideType: 'leaderboard' },
  ...[5, 6, 7, 8, 9].map((index): DemoItem => ({ kind: 'question', index })),
  { kind: 'slide', slideType: 'leaderboard' },
];

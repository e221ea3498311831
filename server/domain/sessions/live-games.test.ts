/**
 * The overview's rows (DESIGN §18) built from the rooms' summaries: exactly the contract's fields,
 * whatever an instance of another release wrote into the shared summaries (multi-instance mode).
 */
import { describe, expect, it } from 'vitest';
import type { RoomSummary } from '../../game/rooms/index.js';
import type { Store } from '../../storage/store.js';
import { LiveGames } from './live-games.js';

const store = {
  sessions: { listByStatus: async () => [{ id: 's-1', title: 'Matinee', auditoriumId: 'a-1' }, { id: 's-2', title: 'Late Show', auditoriumId: null }] },
  auditoriums: { list: async () => [{ id: 'a-1', name: 'Screen 1' }] },
  items: { countQuestionsOf: async (ids: string[]) => new Map(ids.includes('s-2') ? [['s-2', 7]] : []) },
} as unknown as Store;

describe('the live games overview', () => {
  it("lists each live session with exactly the contract's fields, a newer instance's extra ones left out", async () => {
    const fromNewerRelease = { sessionId: 's-1', item: 'slide', questionNumber: 2, questions: 5, phones: 40, displays: 1, answered: 0, reconnectsLastMinute: 1, seatMap: 'A1-A9' } as RoomSummary;
    const games = new LiveGames();
    games.attach(async () => [fromNewerRelease]);
    expect(await games.list(store)).toEqual([
      { sessionId: 's-2', title: 'Late Show', auditorium: null, status: 'live', item: 'idle', questionNumber: null, questions: 7, phones: 0, displays: 0, answered: 0, reconnectsLastMinute: 0, health: 'down' },
      { sessionId: 's-1', title: 'Matinee', auditorium: 'Screen 1', status: 'live', item: 'slide', questionNumber: 2, questions: 5, phones: 40, displays: 1, answered: 0, reconnectsLastMinute: 1, health: 'ok' },
    ]);
  });

  it('puts the games in the order an operator reads their titles: numbers by value, then the same title by session', async () => {
    const titles = ['Screen 10 pre-show', 'screen 2 pre-show', 'Screen 1 pre-show', 'Screen 2 pre-show', 'Late Show'];
    const chain = {
      ...store,
      sessions: { listByStatus: async () => titles.map((title, i) => ({ id: `s-${9 - i}`, title, auditoriumId: null })) },
      items: { countQuestionsOf: async () => new Map() },
    } as unknown as Store;
    const rows = await new LiveGames().list(chain);
    expect(rows.map((row) => [row.title, row.sessionId])).toEqual([
      ['Late Show', 's-5'],
      ['Screen 1 pre-show', 's-7'],
      ['Screen 2 pre-show', 's-6'],
      ['screen 2 pre-show', 's-8'],
      ['Screen 10 pre-show', 's-9'],
    ]);
  });
});

/**
 * `npm run bench -- rooms [1000x10] [--rounds 3]`: the room path alone (issue 26). S rooms of N
 * players run by a RoomManager on storage that keeps nothing and a broadcaster that only
 * serializes, in a process of their own started with `npm start`'s flags; every operator presses
 * Next within the same second and every player answers within the second after, on real timers,
 * as in `many`. Prints the process's CPU per round (all threads: the garbage collector's too).
 *
 * No sockets, no database: what is left is the engine, the rooms' queues, timers, group commits
 * and the instance's shared commits, and the garbage they make. A profile of `many` spreads a round's cost over the whole
 * path of an answer (docs/PERFORMANCE.md); this isolates the part that is Marquee's own code, so
 * a change to it can be measured in seconds, with far less noise than a run of `many`. The
 * harness's own timers (one per answer) are part of the figure, the same for every version compared.
 */
import { spawnSync } from 'node:child_process';
import { makeProgram, makeQuestion } from '../server/game/engine/testing/testkit.js';
import type { ServerMessage } from '../protocol/index.js';
import { systemClock } from '../server/game/rooms/clock.js';
import { RoomManager } from '../server/game/rooms/manager.js';
import { MemoryRoomStorage } from '../server/game/rooms/memory-storage.js';
import type { Room } from '../server/game/rooms/room.js';
import type { CommitBatch } from '../server/game/rooms/storage.js';
import { REPO_ROOT, startScriptFlags } from './targets.js';

const QUESTIONS = 5;
const PRESS_SPREAD_MS = 1_000;
const ANSWER_WINDOW_MS = 1_000;
/** The round's last answers are in by then; the reveal (5 s) ends before the next press. */
const ROUND_MS = PRESS_SPREAD_MS + ANSWER_WINDOW_MS + 600;
const REVEAL_WAIT_MS = 6_000;

/**
 * Keeps nothing: the commit is the database's part, measured by `many`. It takes several sessions'
 * batches at once as the database does, so the rooms' batches go through the instance's shared
 * commits (shared-commits.ts) as in the server.
 */
class DiscardingStorage extends MemoryRoomStorage {
  override async commit(_batch: CommitBatch): Promise<void> {}
  async commitMany(_batches: CommitBatch[]): Promise<void> {}
}

export interface RoomsResult {
  sessions: number;
  players: number;
  cpuSecondsPerRound: number[];
}

/** Runs the measurement in a child process with `npm start`'s V8 flags; returns its figures. */
export function runRoomsBench(sessions: number, players: number, rounds: number): RoomsResult {
  const child = spawnSync(process.execPath, [...startScriptFlags(), '--expose-gc', '--import', 'tsx', 'bench/rooms.ts', '--child', String(sessions), String(players), String(rounds)], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`rooms bench failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as RoomsResult;
}

const playerId = (s: number, p: number) => `player-${s}-${p}-0000-0000-000000000000`;

function shownQuestionId(room: Room): string {
  const state = room.engineState!;
  const item = state.phase.kind === 'question' ? state.program.items[state.phase.itemIndex] : undefined;
  if (item?.itemType !== 'question') throw new Error(`no question open in ${room.sessionId}`);
  return item.question.id;
}

async function measure(sessions: number, players: number, rounds: number): Promise<RoomsResult> {
  const storage = new DiscardingStorage();
  let results = 0;
  const serialize = (message: ServerMessage) => {
    if (message.type === 'answer_result') results++;
    JSON.stringify(message);
  };
  const broadcaster = { toSession: (_s: string, _t: string, m: ServerMessage) => serialize(m), toPlayer: (_s: string, _p: string, m: ServerMessage) => serialize(m), toConnection: (_s: string, _c: string, m: ServerMessage) => serialize(m) };
  const quiet = { error: (details: unknown, message: string) => console.error(message, details), warn: () => {}, info: () => {} };
  for (let s = 0; s < sessions; s++) {
    const items = Array.from({ length: QUESTIONS }, (_, i) => makeQuestion(`q-${s}-${i}`, { timeLimitSeconds: 10 }));
    storage.addSession({ ...makeProgram(items), sessionId: `s${s}` }, { status: 'live', autoRotate: false });
  }
  const manager = new RoomManager({ storage, broadcaster, clock: systemClock, log: quiet });
  await manager.start();
  const rooms: Room[] = [];
  for (let s = 0; s < sessions; s++) {
    const room = (await manager.acquire(`s${s}`))!;
    rooms.push(room);
    // A room's phones at once, as they arrive: their roster writes share a commit.
    await Promise.all([
      room.connect({ connectionId: `a${s}`, role: 'admin' }, () => {}),
      room.connect({ connectionId: `d${s}`, role: 'display' }, () => {}),
      ...Array.from({ length: players }, (_, p) => room.connect({ connectionId: `c${s}-${p}`, role: 'player', playerId: playerId(s, p), name: `P${p}` }, () => {})),
    ]);
  }
  await manager.whenIdle();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const cpuSecondsPerRound: number[] = [];
  // One round more than asked, the first not counted: the JIT compiles the round's code in it.
  for (let r = 0; r <= rounds; r++) {
    globalThis.gc?.();
    const before = process.cpuUsage();
    rooms.forEach((room, s) => {
      setTimeout(() => {
        room.dispatch({ type: 'admin_next_question', connectionId: `a${s}` });
        // The question the press opened, read once the room has run it (a phone gets it from its state).
        setTimeout(() => {
          const questionId = shownQuestionId(room);
          for (let p = 0; p < players; p++) {
            setTimeout(() => {
              room.dispatch({ type: 'submit_answer', connectionId: `c${s}-${p}`, playerId: playerId(s, p), questionId, selectedIndex: p % 4, answerId: `${r}-${s}-${p}`, reactionMs: 500, allowanceMs: 20 });
            }, Math.random() * ANSWER_WINDOW_MS);
          }
        }, 5);
      }, (s * PRESS_SPREAD_MS) / sessions);
    });
    await sleep(ROUND_MS);
    await manager.whenIdle();
    const used = process.cpuUsage(before);
    // Every answer counted: the figure is of a whole round, not of refusals.
    if (results !== sessions * players * (r + 1)) throw new Error(`round ${r + 1}: ${results} results so far, expected ${sessions * players * (r + 1)}`);
    if (r > 0) cpuSecondsPerRound.push(Math.round((used.user + used.system) / 1e4) / 100);
    await sleep(REVEAL_WAIT_MS);
  }
  await manager.close();
  return { sessions, players, cpuSecondsPerRound };
}

if (process.argv[2] === '--child') {
  const [sessions, players, rounds] = process.argv.slice(3).map(Number);
  console.log(JSON.stringify(await measure(sessions, players, rounds)));
}

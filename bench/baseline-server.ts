/**
 * Longer than ~300 lines on purpose: the whole baseline server in one file, so its cost is plain
 * to read next to Marquee's.
 *
 * The baseline: the fastest this runtime does the bench's message pattern. Plain `node:http` and
 * `ws`, everything in memory, no validation, no database (unless BASELINE_COMMITS=1, below), every
 * broadcast serialized once into one Buffer and sent as is to each socket. It speaks just enough
 * of Marquee's REST API and protocol for the same generator to drive it: login, questions,
 * sessions, slides, duplicate, start, register; on the socket `session_state`, `timer_tick`,
 * `answer_accepted`, `answer_progress` and `presence` (to the session's admins and displays, at
 * most 4 a second, as Marquee), `answer_result`, `question_end`, `leaderboard_update`, with the
 * early end once every connected player has answered. One room per session, each with its own
 * timers; Marquee's heartbeat rule (a socket silent for 20 s is pinged, checked every 5 s).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Socket } from 'node:net';
import Database from 'better-sqlite3';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LeaderboardEntry, QuestionView } from '../protocol/views.js';
import { installProbe } from './probe.js';

interface Question extends QuestionView {
  correctIndex: number;
}

interface Answer {
  selectedIndex: number;
  atMs: number;
}

interface Room {
  id: string;
  questions: Question[];
  /** Index into `questions` of the question on screen (open or revealed); -1 before the first. */
  index: number;
  open: boolean;
  startedAtMs: number;
  answers: Map<string, Answer>;
  scores: Map<string, { name: string; points: number; reachedAtMs: number }>;
  players: Map<string, Set<WebSocket>>;
  audience: Set<WebSocket>;
  admins: Set<WebSocket>;
  leaderboard: LeaderboardEntry[];
  tick: NodeJS.Timeout | undefined;
  revealTimer: NodeJS.Timeout | undefined;
  /** answer_progress / presence: when the last went out, and the timer of the one folded in since. */
  insightSentAtMs: number;
  insightTimer: NodeJS.Timeout | undefined;
  presenceSent: string;
}

const INSIGHT_INTERVAL_MS = 250;
const PING_INTERVAL_MS = 20_000;
const heardAtMs = new WeakMap<WebSocket, number>();
/**
 * BASELINE_QUESTION_PINGS=1: every phone also gets a ping right behind each question, whose pong
 * comes back as the one DESIGN §14 measures a phone's delay by (Marquee pings behind every
 * question, server/transport/ws/hub.ts). Off by default: issue 26's baseline lists no pings
 * besides the heartbeat's. docs/PERFORMANCE.md compares the two.
 */
const QUESTION_PINGS = process.env.BASELINE_QUESTION_PINGS === '1';

/**
 * BASELINE_COMMITS=1: the baseline keeps DESIGN §8's promise as cheaply as a server can. Answers and
 * a question's scores go into SQLite (DATA_DIR/baseline.db: WAL, synchronous NORMAL, as Marquee) in
 * ONE transaction per event-loop turn for the whole instance, and `answer_accepted` and a question's
 * results leave only after it. Off by default: issue 26's baseline has no database. It tells how
 * much of Marquee's distance from the plain baseline a commit costs by itself (docs/PERFORMANCE.md).
 * A question still starts at once, as in Marquee.
 */
const COMMITS = process.env.BASELINE_COMMITS === '1';

interface TurnCommit {
  answers: [string, string, string, number, number][];
  scores: [string, string, number, number][];
  /** What waits for the commit, in order (the commit is scheduled when the first is added). */
  after: (() => void)[];
  write(answers: TurnCommit['answers'], scores: TurnCommit['scores']): void;
}

function openTurnCommit(): TurnCommit {
  const db = new Database(path.join(process.env.DATA_DIR ?? '.', 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS answers (session_id TEXT, player_id TEXT, question_id TEXT, selected_index INTEGER, at_ms INTEGER,
             PRIMARY KEY (session_id, player_id, question_id));
           CREATE TABLE IF NOT EXISTS scores (session_id TEXT, player_id TEXT, points INTEGER, reached_at_ms INTEGER,
             PRIMARY KEY (session_id, player_id));`);
  const insertAnswer = db.prepare('INSERT OR IGNORE INTO answers VALUES (?, ?, ?, ?, ?)');
  const upsertScore = db.prepare(
    'INSERT INTO scores VALUES (?, ?, ?, ?) ON CONFLICT (session_id, player_id) DO UPDATE SET points = excluded.points, reached_at_ms = excluded.reached_at_ms',
  );
  const write = db.transaction((answers: TurnCommit['answers'], scores: TurnCommit['scores']) => {
    for (const row of answers) insertAnswer.run(row);
    for (const row of scores) upsertScore.run(row);
  });
  return { answers: [], scores: [], after: [], write };
}

const turnCommit = COMMITS ? openTurnCommit() : null;

function commitTurn(commit: TurnCommit): void {
  const { answers, scores, after } = commit;
  commit.answers = [];
  commit.scores = [];
  commit.after = [];
  commit.write(answers, scores);
  for (const then of after) then();
}

/** `then` at once, or (BASELINE_COMMITS=1) once this turn's writes are committed. */
function durable(then: () => void): void {
  if (!turnCommit) return then();
  if (turnCommit.after.push(then) === 1) setImmediate(() => commitTurn(turnCommit));
}

const REVEAL_MS = 5000;
const questions = new Map<string, Question>();
const rooms = new Map<string, Room>();
const playerNames = new Map<string, string>();

// ------------------------------------------------------------------------------------ fan-out

function frame(message: object): Buffer {
  return Buffer.from(JSON.stringify(message));
}
/**
 * Every socket written during one run of synchronous code stays corked until that run ends, so the
 * three frames a question's end sends each phone (answer_result, question_end, leaderboard) leave
 * in one write syscall, not three. On loopback a write costs far more than the framing.
 */
const corked: Socket[] = [];
function uncorkAll(): void {
  for (const socket of corked) socket.uncork();
  corked.length = 0;
}
function send(ws: WebSocket, data: Buffer): void {
  const socket = (ws as unknown as { _socket?: Socket })._socket;
  if (socket && socket.writableCorked === 0) {
    socket.cork();
    if (corked.push(socket) === 1) process.nextTick(uncorkAll);
  }
  ws.send(data, { binary: false });
}
/** `screensOnly`: the audience set holds phones too; insight goes to its displays only. */
function sendAll(sockets: Iterable<WebSocket>, data: Buffer, screensOnly = false): void {
  for (const ws of sockets) if (!screensOnly || !isPhone.has(ws)) send(ws, data);
}
const isPhone = new WeakSet<WebSocket>();
function sendPlayer(room: Room, playerId: string, message: object): void {
  const sockets = room.players.get(playerId);
  if (sockets) sendAll(sockets, frame(message));
}

function state(room: Room, admin: boolean): object {
  const q = room.index >= 0 ? room.questions[room.index] : null;
  const endsAt = room.open && q ? room.startedAtMs + q.timeLimitSeconds * 1000 : null;
  const now = Date.now();
  const view = q
    ? { id: q.id, text: q.text, choices: q.choices, points: q.points, timeLimitSeconds: q.timeLimitSeconds, categories: q.categories, media: null }
    : null;
  return {
    type: 'session_state',
    view: admin ? 'admin' : 'audience',
    sessionId: room.id,
    status: 'live',
    phase: q ? (room.open ? 'question' : 'reveal') : 'slide',
    serverTime: now,
    endsAt,
    timeRemaining: endsAt === null ? null : Math.ceil((endsAt - now) / 1000),
    slide: null,
    reveal: q && !room.open ? { questionId: q.id, correctIndex: q.correctIndex } : null,
    leaderboard: room.leaderboard,
    media: [],
    mediaItemCount: null,
    question: view && admin ? { ...view, correctIndex: q!.correctIndex } : view,
    ...(admin ? { session: { status: 'live', autoRotate: false, currentQuestionIndex: room.index, totalQuestions: room.questions.length } } : {}),
  };
}

function broadcastState(room: Room): void {
  sendAll(room.audience, frame(state(room, false)));
  sendAll(room.admins, frame(state(room, true)));
}

/** Answer count to admins and displays; presence to admins when it changed. */
function sendInsight(room: Room): void {
  room.insightTimer = undefined;
  room.insightSentAtMs = Date.now();
  const presence = JSON.stringify({ type: 'presence', players: room.players.size, displays: room.audience.size - room.players.size });
  if (presence !== room.presenceSent) {
    room.presenceSent = presence;
    sendAll(room.admins, Buffer.from(presence));
  }
  const q = room.questions[room.index];
  if (!room.open || !q) return;
  const progress = frame({ type: 'answer_progress', questionId: q.id, answered: room.answers.size, players: room.players.size });
  sendAll(room.admins, progress);
  sendAll(room.audience, progress, true);
}

/** Something counted changed: at once after a quiet spell, else folded into one update per interval. */
function insightChanged(room: Room): void {
  if (room.insightTimer) return;
  const waitMs = room.insightSentAtMs + INSIGHT_INTERVAL_MS - Date.now();
  if (waitMs <= 0) sendInsight(room);
  else room.insightTimer = setTimeout(() => sendInsight(room), waitMs);
}

// ------------------------------------------------------------------------------------ game

function nextQuestion(room: Room): void {
  if (room.open) {
    closeQuestion(room);
    // The close's results wait for their commit: the next question follows them, not overtakes them.
    if (turnCommit) return durable(() => nextQuestion(room));
  }
  clearTimeout(room.revealTimer);
  room.index = (room.index + 1) % room.questions.length;
  room.open = true;
  room.startedAtMs = Date.now();
  room.answers = new Map();
  broadcastState(room);
  if (QUESTION_PINGS) {
    const payload = String(room.startedAtMs);
    for (const ws of room.audience) if (isPhone.has(ws)) ws.ping(payload);
  }
  const q = room.questions[room.index];
  const endsAt = room.startedAtMs + q.timeLimitSeconds * 1000;
  room.tick = setInterval(() => {
    const now = Date.now();
    if (now >= endsAt) return closeQuestion(room);
    const tick = frame({ type: 'timer_tick', questionId: q.id, timeRemaining: Math.ceil((endsAt - now) / 1000), serverTime: now, endsAt });
    sendAll(room.audience, tick);
    sendAll(room.admins, tick);
  }, 1000);
}

function closeQuestion(room: Room): void {
  clearInterval(room.tick);
  clearTimeout(room.insightTimer);
  room.insightTimer = undefined;
  const q = room.questions[room.index];
  room.open = false;
  const limitMs = q.timeLimitSeconds * 1000;
  // DESIGN §10: question_end carries the answers per choice, answer_result the player's rank
  // (ties on points share one) among everyone ranked.
  const distribution = [0, 0, 0, 0];
  const scored: { playerId: string; isCorrect: boolean; pointsEarned: number; newScore: number }[] = [];
  for (const [playerId, answer] of room.answers) {
    const isCorrect = answer.selectedIndex === q.correctIndex;
    distribution[answer.selectedIndex]++;
    const elapsed = Math.min(limitMs, Math.max(0, answer.atMs - room.startedAtMs));
    const pointsEarned = isCorrect ? Math.round(q.points * (1 - elapsed / (2 * limitMs))) : 0;
    const score = room.scores.get(playerId) ?? { name: playerNames.get(playerId) ?? '', points: 0, reachedAtMs: 0 };
    if (pointsEarned > 0) score.reachedAtMs = answer.atMs;
    score.points += pointsEarned;
    room.scores.set(playerId, score);
    turnCommit?.scores.push([room.id, playerId, score.points, score.reachedAtMs]);
    scored.push({ playerId, isCorrect, pointsEarned, newScore: score.points });
  }
  const standings = [...room.scores.entries()].sort(([, a], [, b]) => b.points - a.points || a.reachedAtMs - b.reachedAtMs);
  const ranks = new Map<string, number>();
  let rank = 0;
  standings.forEach(([id, s], i) => {
    if (i === 0 || s.points !== standings[i - 1][1].points) rank = i + 1;
    ranks.set(id, rank);
  });
  const results = scored.map(({ playerId, ...result }): [string, object] => [
    playerId,
    { type: 'answer_result', playerId, questionId: q.id, ...result, rank: ranks.get(playerId), players: standings.length },
  ]);
  room.leaderboard = standings.slice(0, 10).map(([id, s]) => ({ player: { id, name: s.name }, score: { pointsTotal: s.points } }));
  const answered = room.answers.size;
  durable(() => {
    // The final count, outside the throttle.
    const progress = frame({ type: 'answer_progress', questionId: q.id, answered, players: room.players.size });
    sendAll(room.admins, progress);
    sendAll(room.audience, progress, true);
    for (const [playerId, message] of results) sendPlayer(room, playerId, message);
    const end = frame({ type: 'question_end', questionId: q.id, correctIndex: q.correctIndex, distribution });
    const board = frame({ type: 'leaderboard_update', leaderboard: room.leaderboard });
    for (const data of [end, board]) {
      sendAll(room.audience, data);
      sendAll(room.admins, data);
    }
    // No state of its own at the close: phones and screens enter the reveal with question_end, as
    // in Marquee (DESIGN §4 lists none). The reveal ends into a hold; Next from the hold starts the
    // next question.
    room.revealTimer = setTimeout(() => broadcastState(room), REVEAL_MS);
  });
}

function onPlayerMessage(room: Room, playerId: string, raw: string): void {
  const message = JSON.parse(raw);
  const q = room.questions[room.index];
  if (message.type !== 'submit_answer' || !room.open || message.questionId !== q.id || room.answers.has(playerId)) return;
  const atMs = Date.now();
  room.answers.set(playerId, { selectedIndex: message.selectedIndex, atMs });
  turnCommit?.answers.push([room.id, playerId, q.id, message.selectedIndex, atMs]);
  durable(() => sendPlayer(room, playerId, { type: 'answer_accepted', questionId: q.id, selectedIndex: message.selectedIndex }));
  if (room.answers.size >= room.players.size) closeQuestion(room);
  else insightChanged(room);
}

// ------------------------------------------------------------------------------------ sockets

const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });

function onConnection(ws: WebSocket, query: URLSearchParams): void {
  const room = rooms.get(query.get('sessionId') ?? '');
  if (!room) return ws.close(4404, 'Session not found');
  heardAtMs.set(ws, Date.now());
  ws.on('message', () => heardAtMs.set(ws, Date.now()));
  ws.on('pong', () => heardAtMs.set(ws, Date.now()));
  const type = query.get('type');
  if (type === 'admin') {
    room.admins.add(ws);
    ws.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'admin_next_question') nextQuestion(room);
    });
    ws.on('close', () => room.admins.delete(ws));
    send(ws, frame(state(room, true)));
    send(ws, Buffer.from(room.presenceSent));
    return;
  }
  room.audience.add(ws);
  send(ws, frame(state(room, false)));
  if (type !== 'player') {
    insightChanged(room);
    ws.on('close', () => {
      room.audience.delete(ws);
      insightChanged(room);
    });
    return;
  }
  isPhone.add(ws);
  const playerId = query.get('playerId') ?? '';
  const sockets = room.players.get(playerId) ?? new Set<WebSocket>();
  sockets.add(ws);
  room.players.set(playerId, sockets);
  insightChanged(room);
  ws.on('message', (data) => onPlayerMessage(room, playerId, String(data)));
  ws.on('close', () => {
    room.audience.delete(ws);
    sockets.delete(ws);
    if (sockets.size === 0) room.players.delete(playerId);
    insightChanged(room);
  });
}

// ------------------------------------------------------------------------------------ HTTP

function readJson(req: http.IncomingMessage): Promise<any> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {}));
  });
}

function newRoom(roomQuestions: Question[]): Room {
  const room: Room = {
    id: randomUUID(), questions: roomQuestions, index: -1, open: false, startedAtMs: 0, answers: new Map(), scores: new Map(),
    players: new Map(), audience: new Set(), admins: new Set(), leaderboard: [], tick: undefined, revealTimer: undefined,
    insightSentAtMs: Number.NEGATIVE_INFINITY, insightTimer: undefined, presenceSent: JSON.stringify({ type: 'presence', players: 0, displays: 0 }),
  };
  rooms.set(room.id, room);
  return room;
}

async function route(method: string, path: string, body: any): Promise<[number, object]> {
  const parts = path.split('/'); // ['', 'api', 'admin', 'sessions', id, action]
  if (method !== 'POST') return [404, { message: 'Not found' }];
  if (path === '/api/admin/login') return [200, { token: 'baseline', user: { id: 'admin', username: 'admin' } }];
  if (path === '/api/admin/questions') {
    const question: Question = { ...body, id: randomUUID(), categories: body.categories ?? [], media: null };
    questions.set(question.id, question);
    return [201, question];
  }
  if (path === '/api/admin/sessions') {
    const room = newRoom([]);
    return [201, { id: room.id, title: body.title, status: 'draft' }];
  }
  if (path === '/api/player/register') {
    const id = randomUUID();
    playerNames.set(id, body.name);
    return [201, { id, name: body.name, email: body.email, sessionId: body.sessionId, playerToken: randomUUID() }];
  }
  const room = parts[3] === 'sessions' ? rooms.get(parts[4]) : undefined;
  if (!room) return [404, { message: 'Not found' }];
  if (parts[5] === 'questions') room.questions.push(questions.get(body.questionId)!);
  if (parts[5] === 'duplicate') return [201, { id: newRoom([...room.questions]).id, status: 'draft' }];
  return [parts[5] === 'start' ? 200 : 201, { id: room.id }];
}

const server = http.createServer((req, res) => {
  readJson(req)
    .then((body) => route(req.method ?? 'GET', (req.url ?? '').split('?')[0], body))
    .then(([status, payload]) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    })
    .catch(() => {
      res.writeHead(400).end();
    });
});

server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname !== '/ws') return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, url.searchParams));
});

// Marquee's heartbeat rule: a socket silent for a whole interval is pinged, one still silent an interval later is dropped.
const pingedAtMs = new WeakMap<WebSocket, number>();
setInterval(() => {
  const now = Date.now();
  for (const ws of wss.clients) {
    const pinged = pingedAtMs.get(ws);
    if (pinged !== undefined && (heardAtMs.get(ws) ?? 0) < pinged) {
      if (now - pinged >= PING_INTERVAL_MS) ws.terminate();
      continue;
    }
    if (now - (heardAtMs.get(ws) ?? 0) < PING_INTERVAL_MS) continue;
    pingedAtMs.set(ws, now);
    ws.ping();
  }
}, PING_INTERVAL_MS / 4).unref();

installProbe();
const port = Number(process.env.PORT ?? 3100);
server.listen(port, '127.0.0.1', () => console.log(`baseline listening on http://127.0.0.1:${port}`));
const shutdown = () => {
  for (const ws of wss.clients) ws.terminate();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

/**
 * The live writer's thread (live-writer.ts): a second connection to the same SQLite file, which
 * writes the live game's shared transactions handed to it and answers with what each did to the
 * answer log, or with the error that rolled it back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DirectSqliteWrites, LiveRowStatements, type LiveWork, writeLiveWork } from './live-commit.js';
import { SQLite } from './sqlite-driver.js';
import { openLiveWriterConnection, type WriterReply, type WriterRequest } from './live-writer.js';

const port = parentPort!;
const sqlite = openLiveWriterConnection(SQLite, (workerData as { dbPath: string }).dbPath);
const direct = new DirectSqliteWrites(sqlite, false);
const live = new LiveRowStatements(sqlite);
port.postMessage('open');

port.on('message', (request: WriterRequest) => {
  if (request.type === 'close') {
    sqlite.close();
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    direct.runInTransaction(() => writeLiveWork(direct, live, request.work as LiveWork));
    reply = { id: request.id, changes: direct.take() };
  } catch (err) {
    direct.take(); // rolled back: nothing of it happened
    const { message, code } = err as { message?: string; code?: string };
    reply = { id: request.id, error: { message: String(message ?? err), code } };
  }
  port.postMessage(reply);
});

// First: on an older Node.js, say so and exit before anything else loads (node-version.ts).
import './node-version.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

/** The project root: the nearest folder above this file holding package.json (works from src and dist). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const server = await startServer(config, {
    webDir: path.join(projectRoot(), 'dist', 'web'),
    logger: { level: config.logLevel },
  });
  const log = server.app.log;
  if (server.generatedAdminPassword) {
    // Printed once, on the start that created the administrator.
    console.log(
      `\n  Created administrator "${config.adminUsername}" with password: ${server.generatedAdminPassword}\n` +
        '  Keep it safe: it is not shown again. Set ADMIN_PASSWORD to choose one instead.\n',
    );
  }
  // The port actually bound (PORT=0 picks a free one).
  const baseUrl = config.publicUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${new URL(server.url).port}`;
  log.info(`Marquee is running on ${baseUrl}`);
  console.log(`\n  Admin dashboard: ${baseUrl}/admin`);
  if (server.demoSession) {
    console.log(
      `  The "${server.demoSession.title}" show is ready: log in, press Start on its card, and open its display.\n` +
        '  (DEMO_CONTENT=false skips it on a fresh database; deleting it keeps it deleted.)\n',
    );
  } else {
    console.log('');
  }
  log.info(config.databaseUrl ? 'Storage: PostgreSQL' : `Storage: SQLite in ${config.dataDir}`);
  if (server.realtime.cluster) log.info(`Multi-instance mode: this is instance ${server.realtime.cluster.instanceId}`);

  // Graceful shutdown (DESIGN §8): refuse new sockets, let each room finish its current step,
  // commit what is gathered with the snapshot and roster, close sockets with 1001, then exit;
  // the next start resumes the game. A second signal exits at once.
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn(`${signal} received again: exiting now`);
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    closing = true;
    log.info(`${signal} received, shutting down`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutting down failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error('Marquee failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});

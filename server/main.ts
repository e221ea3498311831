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
  log.info(`Marquee is running on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);
  log.info(config.databaseUrl ? 'Storage: PostgreSQL' : `Storage: SQLite in ${config.dataDir}`);
  if (config.redisUrl) {
    // Said plainly so nobody starts a second instance expecting them to share live games.
    log.warn('REDIS_URL is set, but the multi-instance mode is not built yet: running as a single instance');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('Marquee failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});

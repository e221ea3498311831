/** `npm run backup -- DIR`, with the same environment as the server (DATA_DIR, DATABASE_URL, S3_*). */
import { ConfigError, loadConfig } from '../config.js';
import { BackupError, backup } from './backup.js';

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target || target.startsWith('-')) {
    console.error('Usage: npm run backup -- DIR   (DIR: a new or empty folder; the environment as for npm start)');
    process.exit(2);
  }
  const result = await backup(loadConfig(), target);
  console.log(`Backed up the database (${Math.ceil(result.databaseBytes / 1024)} KiB) and ${result.mediaFiles} media file(s) to ${result.dir}`);
  if (result.s3Bucket) {
    console.log(`Media are in the S3 bucket "${result.s3Bucket}" and not in this backup: back the bucket up too (docs/OPERATIONS.md).`);
  }
}

main().catch((err) => {
  if (err instanceof BackupError || err instanceof ConfigError) {
    console.error(`Backup refused: ${err.message}`);
    process.exit(1);
  }
  console.error('Backup failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});

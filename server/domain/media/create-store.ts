import path from 'node:path';
import type { Config } from '../../config.js';
import { LocalMediaStore } from './local-store.js';
import { S3MediaStore } from './s3-store.js';
import type { MediaStore } from './store.js';

/** Exactly one store, chosen by configuration: S3 when S3_BUCKET is set, else DATA_DIR/media. */
export function createMediaStore(config: Config, secret: string): MediaStore {
  return config.s3 ? new S3MediaStore(config.s3) : new LocalMediaStore(path.join(config.dataDir, 'media'), secret);
}

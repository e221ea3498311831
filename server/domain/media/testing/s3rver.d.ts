// s3rver ships no types; this covers what the tests use.
declare module 's3rver' {
  import type { Server } from 'node:http';
  interface S3rverOptions {
    port?: number;
    address?: string;
    directory: string;
    silent?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  interface KoaContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
  }
  /** The filesystem store behind the server: what the tests wrap. */
  interface FilesystemStore {
    putObject(object: { bucket: string; key: string }): Promise<{ size: number; md5: string }>;
    getResourcePath(bucket: string, key: string, resource: 'object'): string;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    httpServer: Server;
    store: FilesystemStore;
  }
}

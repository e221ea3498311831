import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export const TEST_BUCKET = 'marquee-media';

export interface S3TestServer {
  endpoint: string;
  /** Environment that points the server's S3 store at this bucket. */
  env: Record<string, string>;
  /** Every object key in the bucket, and the multipart uploads still open (for "nothing left behind"). */
  contents(): { keys: string[]; openUploads: number };
  close(): Promise<void>;
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/** What docs/MEDIA.md asks of a real bucket, so browsers can upload to it directly (e2e tests). */
const BROWSER_CORS =
  '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod>' +
  '<AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>';

/** Longest a PUT waits for its file to hold every byte (below). */
const OBJECT_WRITE_TIMEOUT_MS = 10_000;

/**
 * s3rver answers a PUT once the body has passed through its hashing stream, not once the file is
 * written (its store resolves on the hash stream's 'finish'; the file stream writes after). S3
 * itself is read-after-write consistent, and the server adopts a direct upload by reading it back
 * (HEAD, the first bytes, a copy) right after. On a loaded machine that read can find the file
 * still short or empty, and the upload would be refused as "not media" (the likely cause of one
 * failed CI run). So each PUT here waits until its file holds every byte, as a real bucket's does.
 */
function waitForObjectBytes(server: S3rver): void {
  const { store } = server;
  const putObject = store.putObject.bind(store);
  store.putObject = async (object) => {
    const stored = await putObject(object);
    const file = store.getResourcePath(object.bucket, object.key, 'object');
    const deadline = Date.now() + OBJECT_WRITE_TIMEOUT_MS;
    while (fs.statSync(file).size < stored.size) {
      if (Date.now() > deadline) throw new Error(`s3rver wrote ${fs.statSync(file).size} of ${stored.size} bytes of ${object.key}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return stored;
  };
}

/**
 * A real S3-protocol server (s3rver) on a free port with a temporary directory. s3rver lacks
 * ListParts and AbortMultipartUpload; a small middleware answers both from the part files s3rver
 * keeps, in S3's XML, so the multipart calls are exercised end to end.
 */
export async function startS3TestServer(): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: TEST_BUCKET, configs: [BROWSER_CORS] }] });
  server.middleware.unshift(async (ctx, next) => {
    const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (!match || typeof uploadId !== 'string' || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const uploadDir = path.join(directory, match[1], '._S3rver_uploads', path.basename(uploadId));
    ctx.type = 'application/xml';
    if (!fs.existsSync(uploadDir)) {
      ctx.status = 404;
      ctx.body = xmlError('NoSuchUpload', 'The specified upload does not exist.');
      return;
    }
    if (ctx.method === 'DELETE') {
      fs.rmSync(uploadDir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = '';
      return;
    }
    const parts = fs
      .readdirSync(uploadDir)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b)
      .map((n) => {
        const md5 = fs.readFileSync(path.join(uploadDir, `${n}.md5`), 'utf8').trim();
        const size = fs.statSync(path.join(uploadDir, String(n))).size;
        return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${size}</Size></Part>`;
      });
    ctx.status = 200;
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${match[1]}</Bucket><Key>${match[2]}</Key>` +
      `<UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  });
  waitForObjectBytes(server);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      S3_BUCKET: TEST_BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    contents: () => {
      const bucketDir = path.join(directory, TEST_BUCKET);
      const keys: string[] = [];
      const walk = (dir: string, prefix: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          if (entry.name === '._S3rver_uploads') continue;
          if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
          else if (entry.name.endsWith('._S3rver_object')) keys.push(prefix + entry.name.slice(0, -'._S3rver_object'.length));
        }
      };
      walk(bucketDir, '');
      const uploadsDir = path.join(bucketDir, '._S3rver_uploads');
      const openUploads = fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).length : 0;
      return { keys: keys.sort(), openUploads };
    },
    close: async () => {
      // Clients keep connections alive (the AWS SDK's agent does): end them, or close waits on them.
      server.httpServer.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

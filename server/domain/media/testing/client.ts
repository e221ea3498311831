import fs from 'node:fs';
import path from 'node:path';
import { TestApi, type ApiResponse } from '../../../testing/api.js';
import type { TestServer } from '../../../testing/server.js';
import type { S3TestServer } from './s3-server.js';

export interface HttpResult {
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
}

/** The object id the web uploader takes from an upload URL: its last path segment. */
export const objectIdOf = (url: string) => new URL(url).pathname.split('/').pop()!;

/**
 * Drives the media calls of a test server the way a browser would: admin calls through inject
 * (with the real host, so signed URLs point back at the listening server), uploads and media
 * reads over real HTTP.
 */
export class MediaClient {
  readonly api: TestApi;
  private readonly host: string;

  constructor(
    readonly server: TestServer,
    readonly s3?: S3TestServer,
  ) {
    this.api = new TestApi(server);
    this.host = new URL(server.baseUrl).host;
  }

  login = () => this.api.login();

  call<T = any>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<ApiResponse<T>> {
    return this.api.request<T>(method, url, body, { host: this.host });
  }

  async uploadURL(kind?: 'media' | 'theme'): Promise<string> {
    const res = await this.call('POST', '/api/media/upload', kind ? { kind } : undefined);
    if (res.status !== 200) throw new Error(`upload URL: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.uploadURL;
  }

  async http(url: string, init: RequestInit = {}): Promise<HttpResult> {
    const res = await fetch(url, init);
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, body, text: body.toString('utf8') };
  }

  put(url: string, data: Buffer, contentType = 'application/octet-stream') {
    return this.http(url, { method: 'PUT', body: new Blob([new Uint8Array(data)]), headers: { 'content-type': contentType } });
  }

  /** Uploads a file through a fresh upload URL; returns its object id (the request must succeed). */
  async upload(data: Buffer, contentType: string, kind?: 'media' | 'theme'): Promise<string> {
    const url = await this.uploadURL(kind);
    const res = await this.put(url, data, contentType);
    if (res.status >= 300) throw new Error(`upload: ${res.status} ${res.text}`);
    return objectIdOf(url);
  }

  media(objectId: string, headers: Record<string, string> = {}, method = 'GET') {
    return this.http(`${this.server.baseUrl}/media/${objectId}`, { method, headers });
  }

  /** What the store holds: finished objects, and anything half-uploaded. */
  stored(): { objects: string[]; partial: string[] } {
    if (this.s3) {
      const { keys, openUploads } = this.s3.contents();
      return {
        objects: keys.filter((k) => k.startsWith('media/')).map((k) => k.slice('media/'.length)),
        partial: [...keys.filter((k) => !k.startsWith('media/')), ...Array.from({ length: openUploads }, () => 'open multipart upload')],
      };
    }
    const root = path.join(this.server.server.deps.config.dataDir, 'media');
    const list = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
    return {
      objects: list(root).filter((name) => !name.startsWith('.')),
      partial: [...list(path.join(root, '.incoming')), ...list(path.join(root, '.multipart'))],
    };
  }
}

import type { TestServer } from './server.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

/** A small client for route tests: JSON in, JSON out, through Fastify's inject (no sockets). */
export class TestApi {
  token: string | undefined;

  constructor(private readonly server: TestServer) {}

  async login(): Promise<string> {
    const res = await this.request('POST', '/api/admin/login', {
      username: this.server.adminUsername,
      password: this.server.adminPassword,
    });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
    return this.token!;
  }

  async request<T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const res = await this.server.server.app.inject({
      method,
      url,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    let parsed: unknown = res.body;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.statusCode, body: parsed as T, headers: res.headers as ApiResponse['headers'] };
  }

  get = <T = any>(url: string) => this.request<T>('GET', url);
  post = <T = any>(url: string, body?: unknown) => this.request<T>('POST', url, body);
  put = <T = any>(url: string, body?: unknown) => this.request<T>('PUT', url, body);
  patch = <T = any>(url: string, body?: unknown) => this.request<T>('PATCH', url, body);
  delete = <T = any>(url: string) => this.request<T>('DELETE', url);
}

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { contentSecurityPolicy, s3OriginOf } from './csp.js';

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));

describe('the Content-Security-Policy of the web app', () => {
  it('allows media, images and uploads from the configured S3 bucket, and nothing else from it', () => {
    const virtualHosted = loadConfig({ S3_BUCKET: 'posters', S3_REGION: 'eu-west-1' });
    const pathStyle = loadConfig({ S3_BUCKET: 'posters', S3_ENDPOINT: 'http://127.0.0.1:9000/base', S3_FORCE_PATH_STYLE: 'true' });
    expect(s3OriginOf(virtualHosted)).toBe('https://posters.s3.eu-west-1.amazonaws.com');
    expect(s3OriginOf(pathStyle)).toBe('http://127.0.0.1:9000');
    expect(s3OriginOf(loadConfig({}))).toBeNull();

    const policy = contentSecurityPolicy({ nonce: 'abc', host: 'trivia.example:8080', s3Origin: s3OriginOf(virtualHosted) });
    const s3 = 'https://posters.s3.eu-west-1.amazonaws.com';
    expect(directive(policy, 'media-src')).toBe(`media-src 'self' blob: ${s3}`);
    expect(directive(policy, 'img-src')).toBe(`img-src 'self' data: blob: ${s3}`);
    expect(directive(policy, 'connect-src')).toBe(`connect-src 'self' ws://trivia.example:8080 wss://trivia.example:8080 ${s3}`);
    expect(directive(policy, 'script-src')).toBe("script-src 'self'");
    expect(directive(policy, 'style-src')).toBe("style-src 'self' 'nonce-abc'");
  });

  it('names the socket origin only for a plain Host', () => {
    const socketsFor = (host: string) => directive(contentSecurityPolicy({ nonce: 'n', host, s3Origin: null }), 'connect-src');
    expect(socketsFor('[::1]:3000')).toBe("connect-src 'self' ws://[::1]:3000 wss://[::1]:3000");
    expect(socketsFor("evil; script-src 'unsafe-inline'")).toBe("connect-src 'self'");
    expect(socketsFor('a b')).toBe("connect-src 'self'");
  });
});

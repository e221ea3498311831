import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      adminUsername: 'admin',
      adminPassword: undefined,
      joinLinkTtlSeconds: 600,
      trustProxy: false,
      requireSignedJoin: true,
      demoContent: true,
      s3: undefined,
      metricsToken: undefined,
    });
  });

  it('reads every variable of DESIGN §1', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/marquee',
      DATABASE_URL: 'postgres://u@db:5432/marquee',
      REDIS_URL: 'redis://cache:6379',
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'a-long-password',
      PUBLIC_URL: 'https://trivia.example.com/',
      SECRET: 'x'.repeat(32),
      JOIN_LINK_TTL_SECONDS: '600',
      REQUIRE_SIGNED_JOIN: 'false',
      DEMO_CONTENT: 'false',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/marquee',
      databaseUrl: 'postgres://u@db:5432/marquee',
      redisUrl: 'redis://cache:6379',
      adminUsername: 'boss',
      adminPassword: 'a-long-password',
      publicUrl: 'https://trivia.example.com',
      secret: 'x'.repeat(32),
      joinLinkTtlSeconds: 600,
      requireSignedJoin: false,
      demoContent: false,
    });
  });

  it('refuses REDIS_URL without a PostgreSQL DATABASE_URL, saying why', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://cache:6379' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'redis://cache:6379' })).toThrow(/REDIS_URL: multi-instance mode needs DATABASE_URL \(PostgreSQL\)/);
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379', DATABASE_URL: 'postgres://db/x', INSTANCE_ID: 'web-1' })).toMatchObject({
      redisUrl: 'redis://cache:6379',
      instanceId: 'web-1',
    });
  });

  it('reads the datagram path: on by default on the HTTP port number, off with RTC_UDP_PORT=off', () => {
    expect(loadConfig({}).datagram).toEqual({ udpPort: null, address: null, minRttMs: 300, maxPeers: 500 });
    expect(loadConfig({ HOST: '10.0.0.5' }).datagram).toMatchObject({ address: '10.0.0.5' });
    expect(loadConfig({ RTC_UDP_PORT: '40000', RTC_ADDRESS: '127.0.0.1', RTC_MIN_RTT_MS: '0', RTC_MAX_PEERS: '50' }).datagram).toEqual({
      udpPort: 40000,
      address: '127.0.0.1',
      minRttMs: 0,
      maxPeers: 50,
    });
    expect(loadConfig({ RTC_UDP_PORT: 'off' }).datagram).toBeNull();
    expect(loadConfig({ RTC_MAX_PEERS: '0' }).datagram).toBeNull();
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 3000 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ REQUIRE_SIGNED_JOIN: 'maybe' }, 'REQUIRE_SIGNED_JOIN'],
    [{ JOIN_LINK_TTL_SECONDS: '-5' }, 'JOIN_LINK_TTL_SECONDS'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ METRICS_TOKEN: 'guessable' }, 'METRICS_TOKEN'],
    [{ INSTANCE_ID: 'two words' }, 'INSTANCE_ID'],
    [{ RTC_UDP_PORT: 'on' }, 'RTC_UDP_PORT'],
    [{ RTC_UDP_PORT: '0' }, 'RTC_UDP_PORT'],
    [{ RTC_MIN_RTT_MS: '-1' }, 'RTC_MIN_RTT_MS'],
  ])('stops with a message naming the bad variable: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}:`));
  });
});

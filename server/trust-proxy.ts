import { isIP } from 'node:net';

/**
 * TRUST_PROXY (DESIGN §15): which reverse proxies' X-Forwarded-For/Proto/Host are believed.
 * Unset, `off` or `false`: none (the socket's address, the Host header, plain http). A whole
 * number: that many proxy hops in front of the server. Otherwise a comma-separated list of
 * addresses, CIDRs or the names `loopback`, `linklocal`, `uniquelocal` (the forms Fastify's
 * trustProxy, through proxy-addr, understands). `true` is refused on purpose: it would believe
 * anyone, which is how a made-up X-Forwarded-For used to lock the administrator out.
 */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The parsed setting, or an error message naming what is wrong. */
export function parseTrustProxy(raw: string | undefined): { value: TrustProxy } | { error: string } {
  const text = raw?.trim() ?? '';
  if (text === '' || /^(off|false|0|no)$/i.test(text)) return { value: false };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? { value: hops } : { error: 'a hop count must be from 0 to 10' };
  }
  const entries = text.split(',').map((e) => e.trim()).filter((e) => e !== '');
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0 || entries.length === 0) {
    return { error: `must be off, a hop count, or addresses/CIDRs separated by commas (not: ${bad.join(', ') || text})` };
  }
  return { value: entries };
}

/**
 * Fastify's trustProxy for the setting. Fastify 5.12 treats a bare number as "trust nobody", so
 * a hop count is given as proxy-addr's function form: the socket's peer and the next `hops - 1`
 * addresses of X-Forwarded-For are proxies. That is only sound when nothing but those proxies can
 * reach the server (docs/DEPLOY.md); a list of addresses checks who is talking.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

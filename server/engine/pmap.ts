/**
 * A small persistent (copy-on-write) map from string keys to values.
 *
 * Why: the engine never mutates its input state, and a game may hold thousands of players.
 * Copying one big Map for every answer would make a question cost O(players²). Keys are spread
 * over a fixed number of buckets by a string hash, and a write copies only the bucket it touches
 * plus the short bucket array, so each write costs about players / BUCKET_COUNT.
 */

const BUCKET_COUNT = 64;

/** FNV-1a over UTF-16 code units: fast, deterministic, good enough to spread ids over buckets. */
function bucketOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % BUCKET_COUNT;
}

const EMPTY_BUCKET: ReadonlyMap<string, never> = new Map<string, never>();

export class PMap<V> {
  private constructor(
    private readonly buckets: ReadonlyArray<ReadonlyMap<string, V>>,
    /** Number of entries. */
    readonly size: number,
  ) {}

  static empty<V>(): PMap<V> {
    return new PMap<V>(new Array(BUCKET_COUNT).fill(EMPTY_BUCKET), 0);
  }

  static from<V>(entries: Iterable<readonly [string, V]>): PMap<V> {
    // Built in place (the buckets are new and unshared), then frozen behind the immutable API.
    const buckets: Map<string, V>[] = Array.from({ length: BUCKET_COUNT }, () => new Map());
    for (const [key, value] of entries) buckets[bucketOf(key)].set(key, value);
    let size = 0;
    for (const bucket of buckets) size += bucket.size;
    return new PMap<V>(buckets, size);
  }

  get(key: string): V | undefined {
    return this.buckets[bucketOf(key)].get(key);
  }

  has(key: string): boolean {
    return this.buckets[bucketOf(key)].has(key);
  }

  /** A new map with `key` set; this one is unchanged. */
  set(key: string, value: V): PMap<V> {
    const index = bucketOf(key);
    const old = this.buckets[index];
    const bucket = new Map(old);
    bucket.set(key, value);
    const buckets = this.buckets.slice();
    buckets[index] = bucket;
    return new PMap<V>(buckets, this.size + (old.has(key) ? 0 : 1));
  }

  /** A new map without `key` (or this one, when the key is absent). */
  delete(key: string): PMap<V> {
    const index = bucketOf(key);
    const old = this.buckets[index];
    if (!old.has(key)) return this;
    const bucket = new Map(old);
    bucket.delete(key);
    const buckets = this.buckets.slice();
    buckets[index] = bucket;
    return new PMap<V>(buckets, this.size - 1);
  }

  /** Entries in bucket order: deterministic for a given set of keys, but not sorted. */
  *entries(): IterableIterator<[string, V]> {
    for (const bucket of this.buckets) yield* bucket.entries();
  }

  *keys(): IterableIterator<string> {
    for (const bucket of this.buckets) yield* bucket.keys();
  }

  *values(): IterableIterator<V> {
    for (const bucket of this.buckets) yield* bucket.values();
  }
}

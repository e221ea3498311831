/**
 * A small persistent (copy-on-write) map from string keys to values.
 *
 * Why: the engine never mutates its input state, and a game may hold ten thousand players.
 * Copying one big Map for every answer would make a question cost O(players²). Keys are spread
 * by a string hash over a two-level tree of 64 × 64 small leaf Maps, so a write copies two
 * 64-slot arrays (cheap, flat copies) and one leaf of a few entries: about the same cost at 100
 * players as at 10,000. `setAll` writes many keys at once and copies each touched node once.
 */

const BITS = 6;
const FANOUT = 1 << BITS;
const MASK = FANOUT - 1;

/** FNV-1a over UTF-16 code units: fast, deterministic, good enough to spread ids over leaves. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

type Leaf<V> = ReadonlyMap<string, V>;
type Branch<V> = ReadonlyArray<Leaf<V>>;

const EMPTY_LEAF: Leaf<never> = new Map<string, never>();
const EMPTY_BRANCH: Branch<never> = new Array(FANOUT).fill(EMPTY_LEAF);
const EMPTY_ROOT: ReadonlyArray<Branch<never>> = new Array(FANOUT).fill(EMPTY_BRANCH);

export class PMap<V> {
  private constructor(
    private readonly root: ReadonlyArray<Branch<V>>,
    /** Number of entries. */
    readonly size: number,
  ) {}

  static empty<V>(): PMap<V> {
    return new PMap<V>(EMPTY_ROOT, 0);
  }

  static from<V>(entries: Iterable<readonly [string, V]>): PMap<V> {
    return PMap.empty<V>().setAll(entries);
  }

  private leafOf(key: string): Leaf<V> {
    const hash = hashOf(key);
    return this.root[hash & MASK][(hash >>> BITS) & MASK];
  }

  get(key: string): V | undefined {
    return this.leafOf(key).get(key);
  }

  has(key: string): boolean {
    return this.leafOf(key).has(key);
  }

  /** A new map with `key` set; this one is unchanged. */
  set(key: string, value: V): PMap<V> {
    const hash = hashOf(key);
    const b = hash & MASK;
    const l = (hash >>> BITS) & MASK;
    const old = this.root[b][l];
    const leaf = new Map(old);
    leaf.set(key, value);
    return new PMap<V>(this.replaceLeaf(b, l, leaf), this.size + (old.has(key) ? 0 : 1));
  }

  /** A new map without `key` (or this one, when the key is absent). */
  delete(key: string): PMap<V> {
    const hash = hashOf(key);
    const b = hash & MASK;
    const l = (hash >>> BITS) & MASK;
    const old = this.root[b][l];
    if (!old.has(key)) return this;
    const leaf = new Map(old);
    leaf.delete(key);
    return new PMap<V>(this.replaceLeaf(b, l, leaf.size === 0 ? EMPTY_LEAF : leaf), this.size - 1);
  }

  /**
   * A new map with every entry set (a later entry for the same key wins). The nodes it copies are
   * its own until it returns, so each is copied once however many keys land in it: closing a
   * question for 10,000 players copies each leaf once instead of once per player.
   */
  setAll(entries: Iterable<readonly [string, V]>): PMap<V> {
    const root = this.root.slice();
    const ownBranches = new Set<Branch<V>>();
    const ownLeaves = new Set<Leaf<V>>();
    let size = this.size;
    for (const [key, value] of entries) {
      const hash = hashOf(key);
      const b = hash & MASK;
      const l = (hash >>> BITS) & MASK;
      let branch = root[b] as Leaf<V>[];
      if (!ownBranches.has(branch)) {
        branch = branch.slice();
        ownBranches.add(branch);
        root[b] = branch;
      }
      let leaf = branch[l] as Map<string, V>;
      if (!ownLeaves.has(leaf)) {
        leaf = new Map(leaf);
        ownLeaves.add(leaf);
        branch[l] = leaf;
      }
      if (!leaf.has(key)) size++;
      leaf.set(key, value);
    }
    return size === this.size && ownLeaves.size === 0 ? this : new PMap<V>(root, size);
  }

  private replaceLeaf(b: number, l: number, leaf: Leaf<V>): Branch<V>[] {
    const branch = this.root[b].slice();
    branch[l] = leaf;
    const root = this.root.slice();
    root[b] = branch;
    return root;
  }

  /** Entries in tree order: deterministic for a given set of keys, but not sorted. */
  *entries(): IterableIterator<[string, V]> {
    for (const branch of this.root) for (const leaf of branch) if (leaf.size > 0) yield* leaf.entries();
  }

  *keys(): IterableIterator<string> {
    for (const branch of this.root) for (const leaf of branch) if (leaf.size > 0) yield* leaf.keys();
  }

  *values(): IterableIterator<V> {
    for (const branch of this.root) for (const leaf of branch) if (leaf.size > 0) yield* leaf.values();
  }
}

/**
 * A small persistent (copy-on-write) map from string keys to values.
 *
 * Why: the engine never mutates its input state, and a game may hold ten thousand players.
 * Copying one big Map for every answer would make a question cost O(players²). Keys are spread
 * by a string hash over a three-level tree of 16 × 16 × 16 small leaves, so a write copies three
 * 16-slot arrays and one leaf of a few entries: about the same cost at 100 players as at 10,000.
 * `setAll` writes many keys at once and copies each touched node once.
 *
 * A leaf is a flat array [key0, value0, key1, value1, …]: with 4,096 leaves a game's maps hold a
 * few entries per leaf, which a scan finds as fast as a hash lookup, and a leaf copies with one
 * `slice`. Every answer writes here, so the bytes copied per write are what the garbage collector
 * pays for at 10,000 phones (64-way nodes and Map leaves copied about 1.4 KB per write, this about
 * 0.5 KB; docs/PERFORMANCE.md).
 *
 * A map of up to SMALL_MAX entries (a game of a few dozen players: most of a chain's evening) is
 * one flat array of [order, key, value] triples instead, kept in the tree's walk order: a write
 * copies that one short array, not three 16-slot nodes and a leaf, and a walk reads it straight
 * (issue 26: at 1,000 games of 10 the tree's writes were a quarter of the bytes that survived a
 * young-generation collection). Past SMALL_MAX it becomes the tree, and stays one. Both forms walk
 * in the same order, so no reader can tell which one it has.
 *
 * That order depends on the keys alone, not on the order they were set in: by where their hash
 * puts them, then, within a leaf, by key. So two maps of the same keys walk them alike however
 * their writes arrived, and a reader that needs a deterministic order (a question's close, over
 * 10,000 answers) walks the map instead of sorting what it walked.
 */

const BITS = 4;
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

/** Alternating keys and values. */
type Leaf = readonly unknown[];
type Twig = readonly Leaf[];
type Branch = readonly Twig[];

const EMPTY_LEAF: Leaf = [];
const EMPTY_TWIG: Twig = new Array(FANOUT).fill(EMPTY_LEAF);
const EMPTY_BRANCH: Branch = new Array(FANOUT).fill(EMPTY_TWIG);
const EMPTY_ROOT: readonly Branch[] = new Array(FANOUT).fill(EMPTY_BRANCH);

/** Entries a map holds as one flat array before it becomes the tree. */
const SMALL_MAX = 16;

/**
 * Where a hash's leaf comes in the tree's walk (branch, then twig, then leaf): the small form is
 * sorted by it, entries of the same leaf by key, as in a leaf.
 */
function walkOrder(hash: number): number {
  return ((hash & MASK) << (2 * BITS)) | (((hash >>> BITS) & MASK) << BITS) | ((hash >>> (2 * BITS)) & MASK);
}

/** [order, key, value] triples sorted by order, then key. */
type Small = readonly unknown[];
const EMPTY_SMALL: Small = [];

/**
 * Where `key` (with walk order `order`) is in a small array, or where it would go: the index of the
 * first entry not before it (the caller checks whether that entry is the key).
 */
function seekInSmall(small: Small, order: number, key: string): number {
  let i = 0;
  for (; i < small.length; i += 3) {
    const at = small[i] as number;
    if (at > order || (at === order && (small[i + 1] as string) >= key)) break;
  }
  return i;
}

/** Position of `key` in a small array, or -1. Equality only: cheaper than the ordered seek, for reads. */
function indexInSmall(small: Small, order: number, key: string): number {
  for (let i = 0; i < small.length; i += 3) {
    const at = small[i] as number;
    if (at > order) return -1;
    if (at === order && small[i + 1] === key) return i;
  }
  return -1;
}

/** Sets `key` in a small array the caller owns (a fresh copy); true when the key is new. */
function setInSmall(small: unknown[], hash: number, key: string, value: unknown): boolean {
  const order = walkOrder(hash);
  const at = seekInSmall(small, order, key);
  if (at < small.length && small[at + 1] === key) {
    small[at + 2] = value;
    return false;
  }
  small.splice(at, 0, order, key, value);
  return true;
}

/**
 * A copy of `array` with `gap` slots left open at `i` for the caller to fill: a new entry, in one
 * allocation of the final length (a copy and then a splice was two, for every answer of a small game).
 */
function withGapAt(array: readonly unknown[], i: number, gap: number): unknown[] {
  const out = new Array<unknown>(array.length + gap);
  for (let j = 0; j < i; j++) out[j] = array[j];
  for (let j = i; j < array.length; j++) out[j + gap] = array[j];
  return out;
}

/** Where `key` is in a leaf (sorted by key), or where it would go: the first key not before it. */
function seekIn(leaf: Leaf, key: string): number {
  let i = 0;
  while (i < leaf.length && (leaf[i] as string) < key) i += 2;
  return i;
}

/** Position of `key` in a leaf, or -1. Equality only: cheaper than the ordered seek, for reads. */
function indexIn(leaf: Leaf, key: string): number {
  for (let i = 0; i < leaf.length; i += 2) if (leaf[i] === key) return i;
  return -1;
}

export class PMap<V> {
  private constructor(
    /** The tree; unused (the empty one) while the map is small. */
    private readonly root: readonly Branch[],
    /** Number of entries. */
    readonly size: number,
    /** The small form, or null once the map is a tree. */
    private readonly small: Small | null,
  ) {}

  static empty<V>(): PMap<V> {
    return new PMap<V>(EMPTY_ROOT, 0, EMPTY_SMALL);
  }

  static from<V>(entries: Iterable<readonly [string, V]>): PMap<V> {
    return PMap.empty<V>().setAll(entries);
  }

  private leafOf(key: string): Leaf {
    const hash = hashOf(key);
    return this.root[hash & MASK][(hash >>> BITS) & MASK][(hash >>> (2 * BITS)) & MASK];
  }

  get(key: string): V | undefined {
    const { small } = this;
    if (small !== null) {
      const at = indexInSmall(small, walkOrder(hashOf(key)), key);
      return at < 0 ? undefined : (small[at + 2] as V);
    }
    const leaf = this.leafOf(key);
    const at = indexIn(leaf, key);
    return at < 0 ? undefined : (leaf[at + 1] as V);
  }

  has(key: string): boolean {
    const { small } = this;
    if (small !== null) return indexInSmall(small, walkOrder(hashOf(key)), key) >= 0;
    return indexIn(this.leafOf(key), key) >= 0;
  }

  /**
   * A new map with `key` set; this one is unchanged. Setting the value a key holds already returns
   * this map: nothing is copied when nothing changes (an answer sets its player's delay whether it
   * moved or not), and a reader comparing maps by identity sees no change.
   */
  set(key: string, value: V): PMap<V> {
    const hash = hashOf(key);
    const { small } = this;
    if (small !== null) {
      const order = walkOrder(hash);
      const at = seekInSmall(small, order, key);
      if (at < small.length && small[at + 1] === key) {
        if (small[at + 2] === value) return this;
        const copy = small.slice();
        copy[at + 2] = value;
        return new PMap<V>(EMPTY_ROOT, this.size, copy);
      }
      // Full: only a key it holds already keeps it small.
      if (this.size === SMALL_MAX) return this.asTree().set(key, value);
      const grown = withGapAt(small, at, 3);
      grown[at] = order;
      grown[at + 1] = key;
      grown[at + 2] = value;
      return new PMap<V>(EMPTY_ROOT, this.size + 1, grown);
    }
    const old = this.root[hash & MASK][(hash >>> BITS) & MASK][(hash >>> (2 * BITS)) & MASK];
    const at = seekIn(old, key);
    const found = at < old.length && old[at] === key;
    if (found && old[at + 1] === value) return this;
    const leaf = found ? old.slice() : withGapAt(old, at, 2);
    leaf[at] = key;
    leaf[at + 1] = value;
    return new PMap<V>(this.replaceLeaf(hash, leaf), this.size + (found ? 0 : 1), null);
  }

  /** A new map without `key` (or this one, when the key is absent). */
  delete(key: string): PMap<V> {
    const hash = hashOf(key);
    const { small } = this;
    if (small !== null) {
      const at = indexInSmall(small, walkOrder(hash), key);
      if (at < 0) return this;
      const copy = small.slice();
      copy.splice(at, 3);
      return new PMap<V>(EMPTY_ROOT, this.size - 1, copy);
    }
    const old = this.root[hash & MASK][(hash >>> BITS) & MASK][(hash >>> (2 * BITS)) & MASK];
    const at = indexIn(old, key);
    if (at < 0) return this;
    const leaf = old.length === 2 ? EMPTY_LEAF : old.filter((_, i) => i !== at && i !== at + 1);
    return new PMap<V>(this.replaceLeaf(hash, leaf), this.size - 1, null);
  }

  /** The same entries as a tree, in the same walk order (a small map's triples are in it already). */
  private asTree(): PMap<V> {
    const small = this.small;
    if (small === null) return this;
    const entries: [string, V][] = [];
    for (let i = 0; i < small.length; i += 3) entries.push([small[i + 1] as string, small[i + 2] as V]);
    return new PMap<V>(EMPTY_ROOT, 0, null).setAll(entries);
  }

  /**
   * A new map with every entry set (a later entry for the same key wins). The nodes it copies are
   * its own until it returns, so each is copied once however many keys land in it: closing a
   * question for 10,000 players copies each leaf once instead of once per player.
   */
  setAll(entries: Iterable<readonly [string, V]>): PMap<V> {
    if (this.small !== null) {
      const list = Array.isArray(entries) ? (entries as readonly (readonly [string, V])[]) : [...entries];
      if (list.length === 0) return this;
      // Small enough whatever the keys: one copy of the array, each entry set in it.
      if (this.size + list.length <= SMALL_MAX) {
        const copy = this.small.slice();
        let size = this.size;
        for (const [key, value] of list) if (setInSmall(copy, hashOf(key), key, value)) size++;
        return new PMap<V>(EMPTY_ROOT, size, copy);
      }
      return this.asTree().setAll(list);
    }
    const root = this.root.slice();
    const own = new Set<readonly unknown[]>();
    let size = this.size;
    let changed = false;
    for (const [key, value] of entries) {
      const hash = hashOf(key);
      const b = hash & MASK;
      const t = (hash >>> BITS) & MASK;
      const l = (hash >>> (2 * BITS)) & MASK;
      let branch = root[b] as Twig[];
      if (!own.has(branch)) own.add((root[b] = branch = branch.slice()));
      let twig = branch[t] as Leaf[];
      if (!own.has(twig)) own.add((branch[t] = twig = twig.slice()));
      let leaf = twig[l] as unknown[];
      if (!own.has(leaf)) own.add((twig[l] = leaf = leaf.slice()));
      const at = seekIn(leaf, key);
      if (at < leaf.length && leaf[at] === key) leaf[at + 1] = value;
      else {
        leaf.splice(at, 0, key, value);
        size++;
      }
      changed = true;
    }
    return changed ? new PMap<V>(root, size, null) : this;
  }

  private replaceLeaf(hash: number, leaf: Leaf): Branch[] {
    const b = hash & MASK;
    const t = (hash >>> BITS) & MASK;
    let twig: Twig = this.root[b][t].slice();
    (twig as Leaf[])[(hash >>> (2 * BITS)) & MASK] = leaf;
    // A delete that empties a subtree gives it back to the shared empty one, which the walks skip.
    if (leaf === EMPTY_LEAF && twig.every((l) => l === EMPTY_LEAF)) twig = EMPTY_TWIG;
    let branch: Branch = this.root[b].slice();
    (branch as Twig[])[t] = twig;
    if (twig === EMPTY_TWIG && branch.every((w) => w === EMPTY_TWIG)) branch = EMPTY_BRANCH;
    const root = this.root.slice();
    root[b] = branch;
    return root;
  }

  // The walks below visit entries in tree order: deterministic for a given set of keys, but not
  // sorted. They skip the subtrees still shared with the empty tree: a game of 10 players has at
  // most 10 of the 4,096 leaves filled, and walking all of them on every answer (the early-end
  // check) and at every step (the roster) was a tenth of a 1,000-session round (issue 26).
  // forEach, keyList and everyKey are for the hot paths (every answer, every close at 10,000
  // players): the generators allocate a result object per entry, these allocate nothing per entry
  // beyond what they return.

  forEach(fn: (value: V, key: string) => void): void {
    if (this.size === 0) return;
    const { small } = this;
    if (small !== null) {
      for (let i = 0; i < small.length; i += 3) fn(small[i + 2] as V, small[i + 1] as string);
      return;
    }
    for (const branch of this.root) {
      if (branch === EMPTY_BRANCH) continue;
      for (const twig of branch) {
        if (twig === EMPTY_TWIG) continue;
        for (const leaf of twig) for (let i = 0; i < leaf.length; i += 2) fn(leaf[i + 1] as V, leaf[i] as string);
      }
    }
  }

  /** The keys as a new array. */
  keyList(): string[] {
    const keys: string[] = [];
    this.forEach((_, key) => keys.push(key));
    return keys;
  }

  /** True when `test` holds for every key; stops at the first that fails. */
  everyKey(test: (key: string) => boolean): boolean {
    if (this.size === 0) return true;
    const { small } = this;
    if (small !== null) {
      for (let i = 0; i < small.length; i += 3) if (!test(small[i + 1] as string)) return false;
      return true;
    }
    for (const branch of this.root) {
      if (branch === EMPTY_BRANCH) continue;
      for (const twig of branch) {
        if (twig === EMPTY_TWIG) continue;
        for (const leaf of twig) for (let i = 0; i < leaf.length; i += 2) if (!test(leaf[i] as string)) return false;
      }
    }
    return true;
  }

  *entries(): IterableIterator<[string, V]> {
    if (this.size === 0) return;
    const { small } = this;
    if (small !== null) {
      for (let i = 0; i < small.length; i += 3) yield [small[i + 1] as string, small[i + 2] as V];
      return;
    }
    for (const branch of this.root) {
      if (branch === EMPTY_BRANCH) continue;
      for (const twig of branch) {
        if (twig === EMPTY_TWIG) continue;
        for (const leaf of twig) for (let i = 0; i < leaf.length; i += 2) yield [leaf[i] as string, leaf[i + 1] as V];
      }
    }
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }
}

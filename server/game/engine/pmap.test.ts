import { describe, expect, it } from 'vitest';
import { PMap } from './pmap.js';

describe('PMap', () => {
  it('returns new maps on write and leaves the old ones unchanged', () => {
    const empty = PMap.empty<number>();
    const one = empty.set('a', 1);
    const two = one.set('b', 2);
    const changed = two.set('a', 10);
    const removed = changed.delete('b');

    expect(empty.size).toBe(0);
    expect(one.get('a')).toBe(1);
    expect(one.has('b')).toBe(false);
    expect(two.size).toBe(2);
    expect(changed.size).toBe(2);
    expect(changed.get('a')).toBe(10);
    expect(two.get('a')).toBe(1);
    expect(removed.size).toBe(1);
    expect(removed.has('b')).toBe(false);
    expect(changed.has('b')).toBe(true);
  });

  it('walks every entry once, in the iterators\' order, and stops a test at the first key that fails it', () => {
    let map = PMap.empty<number>();
    for (let i = 0; i < 500; i++) map = map.set(`p${i}`, i);
    const walked: [string, number][] = [];
    map.forEach((value, key) => walked.push([key, value]));
    expect(walked).toEqual([...map.entries()]);
    expect(map.keyList()).toEqual([...map.keys()]);
    expect(map.keyList()).toHaveLength(500);
    expect(map.everyKey((key) => key.startsWith('p'))).toBe(true);
    const seen: string[] = [];
    expect(map.everyKey((key) => (seen.push(key), key !== 'p250'))).toBe(false);
    expect(seen.at(-1)).toBe('p250');
    expect(seen.length).toBeLessThan(500);
    expect(PMap.empty<number>().everyKey(() => false)).toBe(true);
  });

  it('a map emptied by deletes walks nothing and fills again', () => {
    let map = PMap.empty<number>();
    for (let i = 0; i < 300; i++) map = map.set(`k${i}`, i);
    for (let i = 0; i < 300; i++) map = map.delete(`k${i}`);
    expect(map.size).toBe(0);
    expect([...map.entries()]).toEqual([]);
    expect(map.keyList()).toEqual([]);
    expect(map.everyKey(() => false)).toBe(true);
    map = map.set('k7', 7).set('k8', 8);
    expect(map.keyList().sort()).toEqual(['k7', 'k8']);
    expect(map.get('k8')).toBe(8);
    expect(map.everyKey((key) => key !== 'k8')).toBe(false);
  });

  it('setting the value a key already holds returns the same map, small or grown', () => {
    const value = { points: 5 };
    const small = PMap.empty<object>().set('a', value).set('b', { points: 1 });
    expect(small.set('a', value)).toBe(small);
    // An equal value that is another object is a change.
    const other = small.set('a', { points: 5 });
    expect(other).not.toBe(small);
    expect(small.get('a')).toBe(value);
    let grown = PMap.empty<number>();
    for (let i = 0; i < 100; i++) grown = grown.set(`k${i}`, i);
    expect(grown.set('k42', 42)).toBe(grown);
    const changed = grown.set('k42', 43);
    expect(changed).not.toBe(grown);
    expect([grown.get('k42'), changed.get('k42'), changed.size]).toEqual([42, 43, 100]);
  });

  it('deleting a missing key returns the same map', () => {
    const map = PMap.from([['a', 1]]);
    expect(map.delete('zzz')).toBe(map);
  });

  it('holds many keys, including awkward ones', () => {
    let map = PMap.empty<number>();
    for (let i = 0; i < 1_000; i++) map = map.set(`player-${i}`, i);
    map = map.set('__proto__', -1).set('constructor', -2);
    expect(map.size).toBe(1_002);
    expect(map.get('player-999')).toBe(999);
    expect(map.get('__proto__')).toBe(-1);
    expect(map.get('constructor')).toBe(-2);
    expect([...map.values()].reduce((a, b) => a + b, 0)).toBe((999 * 1_000) / 2 - 3);
    expect(new Set(map.keys()).size).toBe(1_002);
  });

  it('from() counts entries and keeps the last value of a repeated key', () => {
    const map = PMap.from([
      ['x', 1],
      ['y', 2],
      ['x', 3],
    ]);
    expect(map.size).toBe(2);
    expect(map.get('x')).toBe(3);
  });
});

describe('PMap, small and grown', () => {
  /** A deterministic shuffle of player-like ids. */
  const ids = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `player-${(i * 7919 + seed * 104729) % 100003}-${i}`);

  it('holds the same entries as a Map through sets and deletes across the size where it grows', () => {
    let map = PMap.empty<number>();
    const reference = new Map<string, number>();
    const keys = ids(60, 1);
    let step = 0;
    const check = () => {
      expect(map.size).toBe(reference.size);
      for (const key of keys) {
        expect(map.has(key)).toBe(reference.has(key));
        expect(map.get(key)).toBe(reference.get(key));
      }
      expect(new Map(map.entries())).toEqual(reference);
    };
    for (const key of keys.slice(0, 40)) {
      map = map.set(key, ++step);
      reference.set(key, step);
      check();
    }
    for (const key of keys.slice(0, 40).filter((_, i) => i % 3 === 0)) {
      map = map.set(key, -step); // overwrite, no growth
      reference.set(key, -step);
      map = map.delete(keys[59]); // absent: the same map
      check();
    }
    for (const key of keys.slice(5, 35)) {
      map = map.delete(key);
      reference.delete(key);
      check();
    }
  });

  it('walks in the same order small or grown: a grown map deleted down to a few walks them as a small one built the same way', () => {
    const keys = ids(40, 2);
    let grown = PMap.empty<number>();
    for (const [i, key] of keys.entries()) grown = grown.set(key, i);
    const kept = keys.filter((_, i) => i % 4 === 0); // 10: the small form's size
    for (const key of keys) if (!kept.includes(key)) grown = grown.delete(key);
    let small = PMap.empty<number>();
    for (const key of kept) small = small.set(key, keys.indexOf(key));
    expect(small.size).toBe(10);
    expect(grown.keyList()).toEqual(small.keyList());
    expect([...grown.entries()]).toEqual([...small.entries()]);
    const walked: string[] = [];
    small.forEach((_, key) => walked.push(key));
    expect(walked).toEqual(grown.keyList());
    // Built in one go, past the small size and within it: the same order again.
    expect(PMap.from(kept.map((key) => [key, keys.indexOf(key)] as const)).keyList()).toEqual(small.keyList());
    const many = PMap.from(keys.map((key, i) => [key, i] as const));
    let oneByOne = PMap.empty<number>();
    for (const [i, key] of keys.entries()) oneByOne = oneByOne.set(key, i);
    expect(many.keyList()).toEqual(oneByOne.keyList());
  });

  it('walks in an order set by the keys alone, whatever order they were set in, small or grown', () => {
    // Many keys sharing leaves (10,000 in 4,096 leaves) and a small map's worth sharing walk orders.
    const shuffled = (keys: string[], seed: number) => keys.map((key, i) => [key, (i * 2654435761 + seed) % 4294967296] as const).sort((a, b) => a[1] - b[1]).map(([key]) => key);
    for (const n of [12, 16, 3_000]) {
      const keys = ids(n, 5);
      const byOne = (order: string[]) => order.reduce((map, key) => map.set(key, key.length), PMap.empty<number>());
      const first = byOne(keys).keyList();
      expect(byOne([...keys].reverse()).keyList()).toEqual(first);
      expect(byOne(shuffled(keys, 17)).keyList()).toEqual(first);
      expect(PMap.from(shuffled(keys, 99).map((key) => [key, 1] as const)).keyList()).toEqual(first);
      // A map that got its keys in two batches, in another order, too.
      const half = shuffled(keys, 3);
      const twoBatches = PMap.from(half.slice(0, n / 2).map((key) => [key, 1] as const)).setAll(half.slice(n / 2).map((key) => [key, 1] as const));
      expect(twoBatches.keyList()).toEqual(first);
      expect(new Set(first).size).toBe(n);
    }
  });

  it('setAll on a small map grows it when the entries do not fit, and leaves the small one unchanged', () => {
    const keys = ids(30, 3);
    const small = PMap.from(keys.slice(0, 10).map((key, i) => [key, i] as const));
    const grown = small.setAll(keys.slice(5, 30).map((key, i) => [key, 100 + i] as const));
    expect(small.size).toBe(10);
    expect(small.get(keys[9])).toBe(9);
    expect(grown.size).toBe(30);
    expect(grown.get(keys[9])).toBe(104); // overwritten
    expect(grown.get(keys[0])).toBe(0);
    expect(grown.get(keys[29])).toBe(124);
    expect(grown.everyKey((key) => keys.includes(key))).toBe(true);
  });
});

describe('PMap.setAll', () => {
  it('sets many keys in one new map and leaves the old one unchanged', () => {
    let before = PMap.empty<number>();
    for (let i = 0; i < 500; i++) before = before.set(`p${i}`, i);
    const after = before.setAll(Array.from({ length: 1_000 }, (_, i) => [`p${i}`, -i] as const));
    expect(after.size).toBe(1_000);
    expect(after.get('p10')).toBe(-10);
    expect(after.get('p999')).toBe(-999);
    expect(before.size).toBe(500);
    expect(before.get('p10')).toBe(10);
    expect(before.has('p999')).toBe(false);
  });

  it('keeps the last value of a repeated key and counts it once', () => {
    const map = PMap.empty<string>().set('a', 'old').setAll([
      ['a', 'first'],
      ['b', 'x'],
      ['a', 'last'],
    ]);
    expect(map.size).toBe(2);
    expect(map.get('a')).toBe('last');
  });

  it('returns the same map when given nothing', () => {
    const map = PMap.from([['a', 1]]);
    expect(map.setAll([])).toBe(map);
  });

  it('a map built by setAll behaves like one built key by key', () => {
    const keys = Array.from({ length: 3_000 }, (_, i) => `player-${(i * 7919) % 10_007}`);
    const oneByOne = keys.reduce((map, key, i) => map.set(key, i), PMap.empty<number>());
    const batch = PMap.empty<number>().setAll(keys.map((key, i) => [key, i] as const));
    expect(batch.size).toBe(oneByOne.size);
    expect([...batch.entries()]).toEqual([...oneByOne.entries()]);
    const emptied = keys.reduce((map, key) => map.delete(key), batch);
    expect(emptied.size).toBe(0);
    expect([...emptied.keys()]).toEqual([]);
  });
});

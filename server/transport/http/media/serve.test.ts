import { describe, expect, it } from 'vitest';
import { etagMatches, parseRange, rangeStillValid } from './serve.js';

describe('parseRange', () => {
  it('reads the byte ranges browsers send while seeking', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('says which ranges cannot be satisfied (416)', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=2000-3000', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });

  it('ignores what it may ignore: no header, other units, several ranges, bad syntax', () => {
    for (const header of [undefined, '', 'items=0-1', 'bytes=0-1,5-6', 'bytes=5-1', 'bytes=-', 'bytes=a-b']) {
      expect(parseRange(header, 1000)).toBeUndefined();
    }
  });
});

describe('conditional requests', () => {
  it('matches If-None-Match lists, weak tags and *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });

  it('applies a range only when If-Range still names the current copy', () => {
    expect(rangeStillValid(undefined, '"a"')).toBe(true);
    expect(rangeStillValid('"a"', '"a"')).toBe(true);
    expect(rangeStillValid('"b"', '"a"')).toBe(false);
  });
});

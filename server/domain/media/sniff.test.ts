import { describe, expect, it } from 'vitest';
import { smallMp4, tinyPng } from './testing/fixtures.js';
import { categoryOf, sniffMediaType } from './sniff.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('sniffMediaType', () => {
  it('recognises images and videos by their bytes', async () => {
    expect(await sniffMediaType(tinyPng())).toBe('image/png');
    expect(await sniffMediaType(smallMp4(100))).toBe('video/mp4');
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40)]);
    expect(await sniffMediaType(gif)).toBe('image/gif');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, ...new Array(40).fill(0)]);
    expect(await sniffMediaType(jpeg)).toBe('image/jpeg');
  });

  it('recognises SVG after a BOM, XML declaration, comments and doctype', async () => {
    expect(await sniffMediaType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml');
    const preamble =
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg width="1">';
    expect(await sniffMediaType(bytes(preamble))).toBe('image/svg+xml');
  });

  it('refuses everything else, whatever it claims to be', async () => {
    for (const text of ['hello world', '<html><body>hi</body></html>', '{"a":1}', '<?xml version="1.0"?><rss/>', '<svgish>']) {
      expect(await sniffMediaType(bytes(text)), text).toBeUndefined();
    }
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]);
    expect(await sniffMediaType(zip)).toBeUndefined();
    // MP3 audio is media, but not a picture or a film.
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(60)]);
    expect(await sniffMediaType(mp3)).toBeUndefined();
    expect(await sniffMediaType(new Uint8Array(0))).toBeUndefined();
  });

  it('maps content types to the library\'s two kinds', () => {
    expect(categoryOf('image/svg+xml')).toBe('image');
    expect(categoryOf('video/quicktime')).toBe('video');
    expect(categoryOf('audio/mpeg')).toBeUndefined();
  });
});

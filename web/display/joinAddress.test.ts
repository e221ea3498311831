import { describe, expect, it } from 'vitest';
import { joinAddress } from './joinAddress';

describe('the join address the lobby writes out', () => {
  it('is the host and the join page, without the signature a person cannot type', () => {
    const url = 'https://trivia.cinema.example:8443/player/0b7c6f1e-4a3d-4c1b-9e7f-2d5a8c9b1f00?t=1764146400000&sig=' + 'ab'.repeat(32);
    expect(joinAddress(url)).toEqual({ host: 'trivia.cinema.example:8443', path: '/player/0b7c6f1e-4a3d-4c1b-9e7f-2d5a8c9b1f00' });
  });

  it('keeps a plain link as it is', () => {
    expect(joinAddress('http://127.0.0.1:3000/player/s1')).toEqual({ host: '127.0.0.1:3000', path: '/player/s1' });
  });
});

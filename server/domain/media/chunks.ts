import type { Readable } from 'node:stream';

/**
 * The chunks of a request body, read without ever destroying the request: when storage refuses an
 * upload half-way (too large, wrong type), the socket must stay open to carry the 413 or 415 back.
 */
export function detachedChunks(stream: Readable): AsyncIterable<Buffer> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => iterator.next(),
      return: async () => ({ done: true, value: undefined }),
    }),
  };
}

/**
 * A small tmpfs to fill up, for disk-full tests and the outage bench (needs root to mount):
 * `fill()` hands everything the disk has left to one file, so the next write that needs space
 * fails with ENOSPC; `free()` removes it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface SmallDisk {
  dir: string;
  fill(): void;
  free(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `sizeMb` at `dir` (created); throws where mounting is not permitted. */
export function mountSmallDisk(dir: string, sizeMb: number): SmallDisk {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  const filler = path.join(dir, '.filler');
  return {
    dir,
    fill: () => {
      const { bavail, bsize } = fs.statfsSync(dir);
      try {
        fs.writeFileSync(filler, Buffer.alloc(bavail * bsize));
      } catch {
        // ENOSPC at the very end: full, as wanted.
      }
    },
    free: () => fs.rmSync(filler, { force: true }),
    unmount: () => execFileSync('umount', ['-l', dir]),
  };
}

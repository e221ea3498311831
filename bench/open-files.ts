/**
 * Every socket is a file descriptor, so a server or generator holding N phones needs N plus a few
 * hundred (files, the listening socket, the database). A child inherits this process's soft limit
 * on open files; when that is too low but the hard limit allows more, the child is started through
 * `sh -c 'ulimit -n <n> && exec node …'`, which raises its soft limit and keeps its pid (the runner
 * reads CPU and RSS from /proc/<pid>). Above the hard limit only root can go: the runner says so.
 */
import { openFilesLimit, type OpenFilesLimit } from './proc-stats.js';

/** Descriptors a process needs besides its sockets. */
const SPARE_DESCRIPTORS = 256;

export interface NodeCommand {
  command: string;
  args: string[];
  /** Why the limit could not be raised enough, when it could not. */
  problem?: string;
}

export function descriptorsFor(sockets: number): number {
  return sockets + SPARE_DESCRIPTORS;
}

/** `node <nodeArgs>`, with its open-files limit raised to `needed` when this process's is lower. */
export function nodeCommand(nodeArgs: string[], needed: number, limit: OpenFilesLimit = openFilesLimit()): NodeCommand {
  const node = { command: process.execPath, args: nodeArgs };
  if (limit.soft >= needed) return node;
  if (limit.hard < needed) {
    return {
      ...node,
      problem:
        `needs ${needed} open files but the hard limit is ${limit.hard}: only root can raise it ` +
        `(e.g. \`ulimit -Hn ${needed}\` as root, or LimitNOFILE in a systemd unit); sockets past the limit will fail`,
    };
  }
  // "$0" is node, "$@" its arguments: no quoting of paths needed.
  return { command: '/bin/sh', args: ['-c', `ulimit -n ${needed} && exec "$0" "$@"`, process.execPath, ...nodeArgs] };
}

import { hostname } from 'node:os';

/**
 * The seam for multi-instance mode (DESIGN §9): whether this instance runs the pre-show steps
 * now. The steps are already exactly-once without it (each is a conditional update in the
 * database, see runner.ts); the cluster mode plugs its Redis lease in here so that only the lease
 * holder does the work and the others do not race for each claim.
 */
export interface PreShowOwnership {
  /** Written into each claim (`showtimes.claimed_by`), to tell which instance took a step. */
  readonly instanceId: string;
  mayRun(): Promise<boolean>;
}

/** One instance: it always runs the steps. */
export function singleInstanceOwnership(): PreShowOwnership {
  return { instanceId: `${hostname()}:${process.pid}`, mayRun: async () => true };
}

import type { Database } from '#server/platform/db/database.ts';
import type { FeaturePorts } from '../feature-ports.ts';

/**
 * What the console's services use (decision 226): the routes give them the running service's,
 * the `operators` commands the CLI's.
 */
export interface ConsolePorts {
  db: Database;
  secretKey: string;
  clock: () => Date;
  env: { CONSOLE_ORIGIN: string };
}

export function consolePortsOf(deps: FeaturePorts): ConsolePorts {
  return {
    db: deps.database.db,
    secretKey: deps.secretKey,
    clock: deps.clock,
    env: { CONSOLE_ORIGIN: deps.env.CONSOLE_ORIGIN },
  };
}

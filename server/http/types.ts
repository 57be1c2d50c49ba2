import type { Logger } from '../logger.ts';

/** Per-request values set by the HTTP middleware. */
export interface AppVariables {
  requestId: string;
  log: Logger;
}

export interface AppEnv {
  Variables: AppVariables;
}

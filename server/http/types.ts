import type { Logger } from '../logger.ts';

/** Per-request values set by the HTTP middleware. */
export interface AppVariables {
  nonce: string;
  requestId: string;
  log: Logger;
}

export interface AppEnv {
  Variables: AppVariables;
}

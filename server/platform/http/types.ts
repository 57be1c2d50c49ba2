import type { BlockList } from 'node:net';
import type { Logger } from '../logger.ts';

/** Per-request values set by the HTTP middleware. */
export interface AppVariables {
  requestId: string;
  log: Logger;
  /** The proxies whose X-Forwarded-For counts (`TRUST_PROXY`, decision 128). */
  trustedProxies: BlockList;
}

export interface AppEnv {
  Variables: AppVariables;
}

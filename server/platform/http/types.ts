import type { BlockList } from 'node:net';
import type { Logger } from '../logger.ts';
import type { ConsoleRequest, SignedInOperator } from '../route-auth/signed-in-operator.ts';

/** Per-request values set by the HTTP middleware. */
export interface AppVariables {
  requestId: string;
  log: Logger;
  /** The proxies whose X-Forwarded-For counts (`TRUST_PROXY`, decision 128). */
  trustedProxies: BlockList;
  /** The console listener's signed-in operator (decision 226); never set on the public one. */
  operator?: SignedInOperator;
  /** Set by the console listener's session middleware for its guards. */
  consoleRequest?: ConsoleRequest;
}

export interface AppEnv {
  Variables: AppVariables;
}

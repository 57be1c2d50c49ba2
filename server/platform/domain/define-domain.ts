import type { RouteGroup } from '../api-doc/define-route.ts';
import type { AdminCommand } from '../commands/command.ts';

/** A background job of the running server: started once, its stopper awaited at shutdown. */
export interface DomainJob<Context> {
  name: string;
  start(context: Context): () => Promise<void>;
}

/**
 * What one domain adds to the product (decision 169): its routes, its operator commands and its
 * background jobs. `server/domains.ts` lists every domain; the app, the OpenAPI document, the
 * admin CLI and the runtime iterate that list.
 */
export interface Domain<RouteDeps, JobContext> {
  name: string;
  /**
   * The machine hot path: mounted before the security headers, compression and CSRF check,
   * which a JSON answer for the CLI does not need (decision 077).
   */
  hotPathRoutes?: ReadonlyArray<RouteGroup<RouteDeps>>;
  /** Mounted after the CSRF check, in this order, before the site's catch-all. */
  routes?: ReadonlyArray<RouteGroup<RouteDeps>>;
  /**
   * Loaded by the admin CLI only, so the server never loads what the commands need (decision
   * 135: `server/lazy-imports.test.ts`).
   */
  adminCommands?: () => Promise<readonly AdminCommand[]>;
  jobs?: ReadonlyArray<DomainJob<JobContext>>;
}

/** Identity helper that type-checks a domain's manifest. */
export function defineDomain<RouteDeps = unknown, JobContext = unknown>(
  domain: Domain<RouteDeps, JobContext>,
): Domain<RouteDeps, JobContext> {
  return domain;
}

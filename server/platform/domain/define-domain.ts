import type { RouteGroup } from '../api-doc/define-route.ts';
import type { AdminCommand, CommandSettings } from '../commands/command.ts';
import type { Job } from '../jobs/job.ts';

/**
 * What one domain adds to the product (decision 169): its routes, its operator commands and its
 * background jobs. `server/domains.ts` lists every domain; the app, the OpenAPI document, the
 * admin CLI and the runtime iterate that list.
 */
export interface Domain<RouteDeps, JobContext, Settings extends CommandSettings = CommandSettings> {
  name: string;
  /**
   * The machine hot path: mounted before the security headers, compression and CSRF check,
   * which a JSON answer for the CLI does not need (decision 077).
   */
  hotPathRoutes?: ReadonlyArray<RouteGroup<RouteDeps>>;
  /** Mounted after the CSRF check, in this order, before the site's catch-all. */
  routes?: ReadonlyArray<RouteGroup<RouteDeps>>;
  /**
   * The operator console's endpoints (`/console/api/…`): mounted only by the console's own
   * listener, behind its session middleware (decision 226), never on the public one. Each
   * declares `{ permission }` unless `consoleRoutesWithoutPermission` says why not.
   */
  consoleRoutes?: ReadonlyArray<RouteGroup<RouteDeps>>;
  /**
   * Loaded by the admin CLI, and by the server only when its admin socket runs a command, so a
   * server never loads what the commands need otherwise (decisions 135 and 189:
   * `server/lazy-imports.test.ts`). Their `context.ports()` are the ports the domain's routes
   * get (decision 232).
   */
  adminCommands?: () => Promise<readonly AdminCommand<Settings, RouteDeps>[]>;
  /**
   * Its background jobs (decision 174), made once when the server starts; the runtime runs every
   * domain's jobs on the one runner.
   */
  jobs?: (context: JobContext) => readonly Job[];
}

/** Identity helper that type-checks a domain's manifest. */
export function defineDomain<
  RouteDeps = unknown,
  JobContext = unknown,
  Settings extends CommandSettings = CommandSettings,
>(domain: Domain<RouteDeps, JobContext, Settings>): Domain<RouteDeps, JobContext, Settings> {
  return domain;
}

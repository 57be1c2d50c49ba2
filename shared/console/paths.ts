/**
 * Where the operator console lives (decision 226). A module of its own with no imports, so the
 * console's pages take these strings without pulling the contracts' schemas into their chunks.
 */

/** Where the console's JSON endpoints live, on the console's own listener. */
export const CONSOLE_API = '/console/api';

/** The console's session cookie: host-only, HTTPS-only, never sent cross-site. */
export const CONSOLE_SESSION_COOKIE = '__Host-orgsmith-console';

/** The path of an enrolment link's page; the token follows. */
export const CONSOLE_ENROL_PATH = '/console/enrol';

/**
 * Whether a path is the console's: its pages, their route data (`/console.data`,
 * `/console/operators.data`) and its API. The public listener answers them 404.
 */
export function isConsolePath(path: string): boolean {
  return path === '/console' || path.startsWith('/console/') || path.startsWith('/console.');
}

import { z } from 'zod';
import { isPermission, type Permission } from '#shared/console/permissions.ts';

/**
 * How the caller of an endpoint proves it may call it, declared on its `defineRoute` (decision
 * 225). The declaration decides the CSRF check, the middleware `handle` puts before the handler
 * and the operation's `security` in the API document.
 */
export type RouteAuth =
  /** No credential: reads, and writes on the reviewed list of `route-auth.test.ts`. */
  | 'public'
  /** A page of the site in the visitor's browser: the CSRF cookie echoed in a header or form field. */
  | 'csrf'
  /** The CLI: a licence key in the JSON body, or an access token as `Authorization: Bearer`. */
  | 'accessToken'
  /** A licence key (or, to revoke it, the access token itself) in the JSON body; never a header. */
  | 'licenceKey'
  /** Stripe's webhook: `Stripe-Signature` over the raw body, verified by the handler. */
  | 'stripeSignature'
  /** Any operator signed in to the console (their own session: who am I, sign out, step-up). */
  | 'consoleSession'
  /** An operator of the console whose role grants this permission (`licence.suspend`, …). */
  | { readonly permission: Permission };

/** The same kinds at run time, for definitions that escaped the type checker. */
export const routeAuthSchema = z.union([
  z.enum(['public', 'csrf', 'accessToken', 'licenceKey', 'stripeSignature', 'consoleSession']),
  z.strictObject({ permission: z.string().refine(isPermission) }),
]);

/** Whether the caller's browser holds a cookie that a cross-site request would carry along. */
export function checksCsrf(auth: RouteAuth): boolean {
  return auth === 'csrf' || auth === 'consoleSession' || typeof auth === 'object';
}

/** `csrf`, or `permission licence.suspend`: for error messages. */
export function describeRouteAuth(auth: RouteAuth): string {
  return typeof auth === 'string' ? auth : `permission ${auth.permission}`;
}

/** The parts of a definition the checks below read. */
export interface RouteAuthFacts {
  method: string;
  path: string;
  operationId: string;
  auth: RouteAuth;
}

/**
 * Definitions that let anyone change something: a method other than GET declared `public`, and
 * not on `reviewed` (operationId → why no credential is needed).
 */
export function unreviewedPublicWrites(
  routes: readonly RouteAuthFacts[],
  reviewed: Readonly<Record<string, string>>,
): string[] {
  return routes
    .filter((route) => route.method.toLowerCase() !== 'get' && route.auth === 'public')
    .filter((route) => !reviewed[route.operationId]?.trim())
    .map((route) => `${route.method.toUpperCase()} ${route.path} (${route.operationId})`);
}

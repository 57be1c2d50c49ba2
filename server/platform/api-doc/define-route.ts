import type { Context, Env, Hono, MiddlewareHandler, Next } from 'hono';
import type { z } from 'zod';
import { readJsonBody, readQuery, type RequestInput } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { requireConsoleSession, requirePermission } from '../route-auth/require-permission.ts';
import { describeRouteAuth, routeAuthSchema } from '../route-auth/route-auth.ts';
import type { AnySchema, ApiOperationDoc, ObjectSchema } from './api-doc.ts';

/** What a definition says about the request: only its schemas shape the handler's input. */
export type ApiRequestDoc = NonNullable<ApiOperationDoc['request']>;

type BodyOf<R> = R extends { body: infer S extends AnySchema } ? S : never;
type QueryOf<R> = R extends { query: infer S extends ObjectSchema } ? S : never;

/**
 * What a handler reads, validated by its definition's own schemas. Reading is the handler's
 * call, so a rate limit can still be checked before the body is read.
 */
export type RouteInput<R> = ([BodyOf<R>] extends [never]
  ? unknown
  : {
      /** The JSON body by `request.body` (415, 413 and 400 answers as `readJsonBody`). */
      body(): Promise<RequestInput<z.output<BodyOf<R>>>>;
    }) &
  ([QueryOf<R>] extends [never]
    ? unknown
    : {
        /** The query string by `request.query` (400 answers as `readQuery`). */
        query(): RequestInput<z.output<QueryOf<R>>>;
      });

export type RouteHandler<R, E extends Env = AppEnv, P extends string = string> = (
  c: Context<E, P>,
  input: RouteInput<R>,
  next: Next,
) => Response | Promise<Response>;

/**
 * One endpoint, defined once: its method, path and schemas are what the OpenAPI document shows,
 * what `handle` registers and what the handler's `input` validates with (decision 168); its `auth`
 * decides the CSRF check, the middleware before the handler and its documented security (225).
 */
export interface RouteDefinition<
  R extends ApiRequestDoc = ApiRequestDoc,
  P extends string = string,
> {
  readonly doc: ApiOperationDoc & { path: P; request?: R };
  /** Registers the handler on `app` at the definition's method and path. */
  handle<E extends Env = AppEnv>(app: Hono<E>, handler: RouteHandler<R, E, P>): void;
  /** …after a middleware (e.g. `noQueryParameters`). */
  handle<E extends Env = AppEnv>(
    app: Hono<E>,
    middleware: MiddlewareHandler<E>,
    handler: RouteHandler<R, E, P>,
  ): void;
}

/** Which definitions each app got, so that a group can tell a definition nobody registered. */
const registered = new WeakMap<object, Set<ApiOperationDoc>>();

export function defineRoute<R extends ApiRequestDoc = never, P extends string = string>(
  doc: ApiOperationDoc & { path: P; request?: R },
): RouteDefinition<R, P> {
  checkAuth(doc);
  const { auth } = doc;
  // What the declaration puts before the handler; the CSRF check is app-wide (`csrf.ts`).
  const guard =
    typeof auth === 'object'
      ? requirePermission(auth.permission)
      : auth === 'consoleSession'
        ? requireConsoleSession
        : undefined;
  const definition: RouteDefinition<R, P> = {
    doc,
    handle<E extends Env>(
      app: Hono<E>,
      ...handlers: [RouteHandler<R, E, P>] | [MiddlewareHandler<E>, RouteHandler<R, E, P>]
    ) {
      const method = doc.method.toUpperCase();
      // Hono's own types cannot follow a generic environment through `on`; E is the app's.
      const target = app as unknown as Hono;
      const last = handlers.at(-1) as RouteHandler<R, E, P>;
      const run = (c: Context, next: Next) =>
        last(c as unknown as Context<E, P>, inputOf<R>(c, doc), next);
      const middleware =
        handlers.length === 2 ? (handlers[0] as unknown as MiddlewareHandler) : undefined;
      if (guard && middleware) target.on(method, doc.path, guard, middleware, run);
      else if (guard) target.on(method, doc.path, guard, run);
      else if (middleware) target.on(method, doc.path, middleware, run);
      else target.on(method, doc.path, run);
      const set = registered.get(app) ?? new Set<ApiOperationDoc>();
      if (set.has(doc)) throw new Error(`${describe(doc)} is registered twice`);
      set.add(doc);
      registered.set(app, set);
    },
  };
  return definition;
}

/** A definition's `auth` is one of the kinds, and a GET is never a `csrf` one: GETs are not checked. */
function checkAuth(doc: ApiOperationDoc): void {
  const auth: unknown = doc.auth;
  if (!routeAuthSchema.safeParse(auth).success) {
    throw new Error(
      `${describe(doc)} declares no valid auth (decision 225): ${JSON.stringify(auth) ?? 'none'}`,
    );
  }
  if (doc.method === 'get' && doc.auth === 'csrf') {
    throw new Error(
      `${describe(doc)} declares auth ${describeRouteAuth(doc.auth)}, but a GET is never CSRF-checked`,
    );
  }
}

function inputOf<R>(c: Context, doc: ApiOperationDoc): RouteInput<R> {
  const { body, query } = doc.request ?? {};
  const input = {
    ...(body ? { body: () => readJsonBody(c, body) } : {}),
    ...(query ? { query: () => readQuery(c, query) } : {}),
  };
  // The accessors exist exactly when the definition has the schemas RouteInput<R> looks for.
  return input as RouteInput<R>;
}

function describe(doc: ApiOperationDoc): string {
  return `${doc.method.toUpperCase()} ${doc.path} (${doc.operationId})`;
}

/**
 * A routes module's endpoints: the definitions (their docs make the OpenAPI document) and the
 * factory that registers them on a Hono app with its dependencies. Building the app fails when a
 * listed definition was not registered or an unlisted one was, so the document and the routes
 * cannot drift apart.
 */
export interface RouteGroup<Deps> {
  readonly docs: readonly ApiOperationDoc[];
  app(deps: Deps): Hono<AppEnv>;
}

export function defineRoutes<Deps>(
  definitions: ReadonlyArray<{ readonly doc: ApiOperationDoc }>,
  build: (deps: Deps) => Hono<AppEnv>,
): RouteGroup<Deps> {
  const docs = definitions.map((definition) => definition.doc);
  return {
    docs,
    app(deps) {
      const app = build(deps);
      // By the app's routes, so a definition registered on a sub-app it mounts counts too.
      const routes = new Set(app.routes.map((route) => `${route.method} ${route.path}`));
      const missing = docs.filter((doc) => !routes.has(`${doc.method.toUpperCase()} ${doc.path}`));
      const got = registered.get(app) ?? new Set<ApiOperationDoc>();
      const unlisted = [...got].filter((doc) => !docs.includes(doc));
      if (missing.length > 0 || unlisted.length > 0) {
        const names = (list: readonly ApiOperationDoc[]) => list.map(describe).join(', ');
        throw new Error(
          [
            missing.length > 0 ? `defined but not registered: ${names(missing)}` : '',
            unlisted.length > 0 ? `registered but not listed: ${names(unlisted)}` : '',
          ]
            .filter(Boolean)
            .join('; '),
        );
      }
      return app;
    },
  };
}

/** The same routes, built from other dependencies (e.g. the app's, for a group that takes a few). */
export function mapRouteDeps<From, To>(
  group: RouteGroup<To>,
  map: (deps: From) => To,
): RouteGroup<From> {
  return { docs: group.docs, app: (deps) => group.app(map(deps)) };
}

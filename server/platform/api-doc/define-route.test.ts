import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { AppEnv } from '../http/types.ts';
import { defineRoute, defineRoutes } from './define-route.ts';

const greet = defineRoute({
  method: 'post',
  path: '/greet/:name',
  operationId: 'greet',
  auth: 'csrf',
  tag: 'Test',
  summary: 'Greets',
  request: {
    body: z.strictObject({ greeting: z.string() }),
    query: z.strictObject({ loud: z.optional(z.literal('yes')) }),
  },
  responses: { 200: { description: 'The greeting.' } },
});
const other = defineRoute({
  method: 'get',
  path: '/other',
  operationId: 'other',
  auth: 'public',
  tag: 'Test',
  summary: 'Other',
  responses: { 204: { description: 'Nothing.' } },
});

const greetings = defineRoutes([greet], (suffix: string) => {
  const app = new Hono<AppEnv>();
  greet.handle(app, async (c, input) => {
    const query = input.query();
    if (!query.ok) return query.response;
    const body = await input.body();
    if (!body.ok) return body.response;
    const text = `${body.value.greeting} ${c.req.param('name')}${suffix}`;
    return c.text(query.value.loud ? text.toUpperCase() : text);
  });
  return app;
});

const post = (app: Hono<AppEnv>, path: string, body: string, type = 'application/json') =>
  app.request(path, { method: 'POST', body, headers: { 'Content-Type': type } });

describe('defineRoute', () => {
  it('registers at its method and path and validates with its own schemas', async () => {
    const app = greetings.app('!');
    expect(greetings.docs).toEqual([greet.doc]);
    const ok = await post(app, '/greet/Ada?loud=yes', '{"greeting":"hello"}');
    expect(await ok.text()).toBe('HELLO ADA!');
    expect((await post(app, '/greet/Ada', '{"greeting":1}')).status).toBe(400);
    expect((await post(app, '/greet/Ada?x=1', '{"greeting":"hi"}')).status).toBe(400);
    expect((await post(app, '/greet/Ada', 'hi', 'text/plain')).status).toBe(415);
    expect((await app.request('/greet/Ada', { method: 'GET' })).status).toBe(404);
  });

  it('refuses a group whose definitions and registrations differ', () => {
    const unregistered = defineRoutes([greet, other], () => greetings.app(''));
    expect(() => unregistered.app(undefined)).toThrow(/defined but not registered: GET \/other/);
    const unlisted = defineRoutes([], () => {
      const app = new Hono<AppEnv>();
      other.handle(app, (c) => c.body(null, 204));
      return app;
    });
    expect(() => unlisted.app(undefined)).toThrow(/registered but not listed: GET \/other/);
    const twice = defineRoutes([other], () => {
      const app = new Hono<AppEnv>();
      other.handle(app, (c) => c.body(null, 204));
      other.handle(app, (c) => c.body(null, 204));
      return app;
    });
    expect(() => twice.app(undefined)).toThrow(/registered twice/);
  });

  it('will not define a route without its auth, nor a GET that wants the CSRF check', () => {
    const definition = {
      method: 'post',
      path: '/no-auth',
      operationId: 'noAuth',
      tag: 'Test',
      summary: 'No auth',
      responses: { 204: { description: 'Nothing.' } },
    } as const;
    // @ts-expect-error: every definition declares its auth (decision 225).
    expect(() => defineRoute(definition)).toThrow(
      /POST \/no-auth \(noAuth\) declares no valid auth/,
    );
    // A kind the type does not know, as a JavaScript caller could pass it.
    const unknownKind: unknown = 'cookie';
    // @ts-expect-error: not a kind of RouteAuth.
    expect(() => defineRoute({ ...definition, auth: unknownKind })).toThrow(
      /declares no valid auth \(decision 225\): "cookie"/,
    );
    // @ts-expect-error: not a permission of #shared/console/permissions.ts.
    expect(() => defineRoute({ ...definition, auth: { permission: 'Licence suspend' } })).toThrow(
      /declares no valid auth/,
    );
    expect(() => defineRoute({ ...definition, method: 'get', auth: 'csrf' })).toThrow(
      /GET \/no-auth \(noAuth\) declares auth csrf, but a GET is never CSRF-checked/,
    );
  });

  it('answers a console route 401 before its middleware and handler run', async () => {
    const suspend = defineRoute({
      method: 'post',
      path: '/console/licences/:id/suspend',
      operationId: 'suspendLicence',
      auth: { permission: 'licence.suspend' },
      tag: 'Test',
      summary: 'Suspend',
      request: { body: z.strictObject({ reason: z.string() }) },
      responses: { 204: { description: 'Suspended.' } },
    });
    const reached: string[] = [];
    const group = defineRoutes([suspend], () => {
      const app = new Hono<AppEnv>();
      suspend.handle(
        app,
        async (_c, next) => {
          reached.push('middleware');
          await next();
        },
        async (c, input) => {
          reached.push('handler');
          await input.body();
          return c.body(null, 204);
        },
      );
      return app;
    });
    const res = await post(group.app(undefined), '/console/licences/x/suspend', '{"reason":"r"}');
    expect(res.status).toBe(401);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      Error: 'ConsoleSessionRequired',
      message: 'Sign in to the operator console first.',
    });
    expect(reached).toEqual([]);
  });
});

import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { AppEnv } from '../http/types.ts';
import { defineRoute, defineRoutes } from './define-route.ts';

const greet = defineRoute({
  method: 'post',
  path: '/greet/:name',
  operationId: 'greet',
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
});

import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toOpenApiPath } from '#server/openapi/build-openapi-document.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

const documentSchema = z.object({
  openapi: z.string(),
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.looseObject({
        operationId: z.string(),
        responses: z.record(z.string(), z.looseObject({ description: z.string() })),
      }),
    ),
  ),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()) }),
});

/** Paths whose routes must all be documented: the account service and the site's own API. */
function isApiPath(path: string): boolean {
  return path.startsWith('/account/v1/') || path.startsWith('/api/');
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [item] : refsIn(item),
  );
}

/** The answer for unknown routes: `NotFound` (a handler's 404 carries its own error code). */
async function isRouteMissing(res: Response): Promise<boolean> {
  if (res.status !== 404) return false;
  const text = await res.clone().text();
  return text === '404 Not Found' || text.includes('"Error":"NotFound"');
}

describe.each(databaseTargets)('OpenAPI document on $name', (target) => {
  let t: TestApp;
  let document: z.infer<typeof documentSchema>;
  let raw: Record<string, unknown>;
  beforeAll(async () => {
    t = await createTestApp(target);
    const res = await t.app.request('/account/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    raw = z.record(z.string(), z.unknown()).parse(await res.json());
    document = documentSchema.parse(raw);
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(structuredClone(raw));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('resolves every reference and documents the error bodies', async () => {
    for (const ref of refsIn(raw)) {
      const name = ref.replace('#/components/schemas/', '');
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(document.components.schemas[name], ref).toBeDefined();
    }
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses['500'], `${method} ${path}`).toBeDefined();
        if (method === 'get') continue;
        // The CSRF answer is documented exactly where the server gives it.
        const res = await t.app.request(path.replace(/\{[^}]+\}/g, 'example'), {
          method: method.toUpperCase(),
        });
        const csrfRefused = res.status === 403;
        expect(operation.responses['403'] !== undefined, `${method} ${path}`).toBe(csrfRefused);
      }
    }
  });

  it('documents every API route the server registers', async () => {
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const registered = [
      ...new Set(
        t.app.routes
          .filter((route) => route.method !== 'ALL' && isApiPath(route.path))
          .map((route) => `${route.method} ${toOpenApiPath(route.path)}`),
      ),
    ];
    expect(registered.length).toBeGreaterThan(0);
    const undocumented: string[] = [];
    for (const route of registered.filter((entry) => !documented.has(entry))) {
      // Handlers that only answer 405 Method Not Allowed are not operations.
      const [method = 'GET', path = '/'] = route.split(' ');
      const res = await t.app.request(path.replace(/\{[^}]+\}/g, 'example'), {
        method,
        headers: csrfHeaders(),
      });
      if (res.status !== 405) undocumented.push(route);
    }
    expect(undocumented).toEqual([]);
  });

  it('answers every documented path and method', async () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) {
        const url = path.replace(/\{[^}]+\}/g, 'example');
        const res = await t.app.request(url, {
          method: method.toUpperCase(),
          headers: csrfHeaders(),
        });
        expect(await isRouteMissing(res), `${method.toUpperCase()} ${path}`).toBe(false);
      }
    }
  });

  it('rejects query parameters on the document itself', async () => {
    const res = await t.app.request('/account/v1/openapi.json?x=1');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ Error: 'InvalidRequest' });
  });
});

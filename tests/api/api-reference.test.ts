import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_REFERENCE_PATH,
  API_REFERENCE_SCRIPT_PATH,
} from '#server/openapi/api-reference-paths.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const [pglite] = databaseTargets;

/** The directives of a CSP header, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('the interactive API reference', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!pglite) throw new Error('no database target');
    t = await createTestApp(pglite);
  });
  afterAll(() => t.close());

  it('is an HTML page whose script comes from our origin under a strict CSP', async () => {
    const res = await t.app.request(API_REFERENCE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    const policy = directives(csp);
    expect(csp.replace("style-src-attr 'unsafe-inline'", '')).not.toMatch(
      /unsafe-inline|unsafe-eval|unsafe-hashes|strict-dynamic/,
    );
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('font-src')).toEqual(["'self'"]);
    const nonce = /<script src="[^"]+" nonce="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`element.nonce = '${nonce}'`);
    expect(nonce).toBeDefined();
    expect(policy.get('script-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(policy.get('style-src')).toEqual(["'self'", `'nonce-${nonce}'`]);
    // Style attributes only (they run no code); style elements still need the nonce.
    expect(policy.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
    expect(policy.get('style-src-elem')).toBeUndefined();
    // Every script is ours: the bundle by path, the inline start-up by the nonce.
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1] ?? '');
    expect(scripts.length).toBe(3);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(html).toContain(`<script src="${API_REFERENCE_SCRIPT_PATH}"`);
    expect(html).toContain('"url": "/account/v1/openapi.json"');
    expect(html).toContain(`<meta property="csp-nonce" content="${nonce}"`);
  });

  it('draws a new nonce for every answer', async () => {
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const res = await t.app.request(API_REFERENCE_PATH);
        return /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
      }),
    );
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('leaves the rest of the site’s CSP without nonces', async () => {
    const res = await t.app.request('/account/v1/openapi.json');
    expect(res.headers.get('content-security-policy')).not.toContain('nonce');
  });

  it('serves Scalar’s bundle, gzipped when accepted, cached for a year', async () => {
    expect(API_REFERENCE_SCRIPT_PATH).toMatch(/^\/account\/v1\/docs\/scalar-\d+\.\d+\.\d+\.js$/);
    const plain = await t.app.request(API_REFERENCE_SCRIPT_PATH);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const script = Buffer.from(await plain.arrayBuffer());
    expect(script.toString('utf8')).toContain('createApiReference');
    const zipped = await t.app.request(API_REFERENCE_SCRIPT_PATH, {
      headers: { 'Accept-Encoding': 'gzip, br' },
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const compressed = Buffer.from(await zipped.arrayBuffer());
    expect(compressed.byteLength).toBeLessThan(script.byteLength / 2);
    expect(gunzipSync(compressed).equals(script)).toBe(true);
  });

  it('refuses query parameters', async () => {
    expect((await t.app.request(`${API_REFERENCE_PATH}?x=1`)).status).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleApp } from '#server/console-app.ts';
import { CONSOLE_SESSION_COOKIE } from '#shared/contracts/console.ts';
import { databaseTargets } from '../support/databases.ts';
import { signedInOperator, signInWithPasskey } from '../support/console-operator.ts';
import { stubServerBuild } from '../support/stub-server-build.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const [pglite] = databaseTargets;

/** The operator console's surface (decision 226): where it answers, its cookie, its headers. */
describe('the operator console surface', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!pglite) throw new Error('no database target');
    t = await createTestApp(pglite, { options: { serverBuild: stubServerBuild() } });
  });
  afterAll(() => t.close());

  it('is not on the public port: /console and everything under it answer 404', async () => {
    const owner = await signedInOperator(t, 'owner');
    for (const path of [
      '/console',
      '/console/',
      '/console/sign-in',
      '/console/operators',
      '/console.data',
      '/console/operators.data',
      '/console/api/session',
      '/console/api/operators',
    ]) {
      const response = await t.app.request(`http://localhost:3000${path}`, {
        headers: { Cookie: `${CONSOLE_SESSION_COOKIE}=${owner.session}` },
      });
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain(owner.email);
    }
    const post = await t.app.request('http://localhost:3000/console/api/sign-in/options', {
      method: 'POST',
      headers: { Origin: 'http://localhost:3000', Cookie: 'XSRF-TOKEN=t', 'X-XSRF-TOKEN': 't' },
    });
    expect(post.status).toBe(404);
  });

  it('serves nothing of the site or the account service on the console port', async () => {
    for (const path of [
      '/pricing',
      '/imprint',
      '/account/v1/openapi.json',
      '/healthz',
      '/sitemap.xml',
    ]) {
      expect((await t.consoleApp.request(`http://localhost:3001${path}`)).status, path).toBe(404);
    }
  });

  it('sets the session cookie host-only, HTTPS-only, HttpOnly, SameSite=Strict, for the session only', async () => {
    const operator = await signedInOperator(t, 'viewer');
    const signIn = await signInWithPasskey(t, operator.authenticator, operator.passkey);
    const [cookie, ...others] = signIn.headers.getSetCookie();
    expect(others).toEqual([]);
    const attributes = (cookie ?? '').split(';').map((part) => part.trim());
    expect(attributes[0]).toMatch(new RegExp(`^${CONSOLE_SESSION_COOKIE}=[A-Za-z0-9_-]{43}$`));
    expect(attributes.slice(1).sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict', 'Secure']);
  });

  it('answers every console page and endpoint no-store, noindex and in no frame', async () => {
    const app = buildConsoleApp(t.deps, { serverBuild: stubServerBuild() });
    const operator = await signedInOperator(t, 'viewer');
    for (const path of ['/console', '/console/sign-in', '/console/api/session']) {
      const response = await app.request(`http://localhost:3001${path}`, {
        headers: { Cookie: `${CONSOLE_SESSION_COOKIE}=${operator.session}` },
      });
      // The stub build has no console pages (404 from React Router): the headers are the point.
      expect(response.headers.get('content-type'), path).toMatch(/^(text\/html|application\/json)/);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
      expect(response.headers.get('content-security-policy'), path).toContain(
        "frame-ancestors 'none'",
      );
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('takes no session from a forged or malformed cookie', async () => {
    for (const cookie of ['x', 'A'.repeat(43), `${'A'.repeat(42)}!`, '']) {
      const response = await t.consoleApp.request('http://localhost:3001/console/api/session', {
        headers: { Cookie: `${CONSOLE_SESSION_COOKIE}=${cookie}` },
      });
      expect(response.status, cookie).toBe(401);
    }
  });
});

import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loggablePath } from '#server/platform/http/request-log.ts';
import { browser, createCheckout, pro10YearlyEur } from '../api/checkout-support.ts';
import { startNginx, type Nginx } from '../deploy/support/nginx.ts';
import { databaseTargets } from '../support/databases.ts';
import { freePort } from '../support/free-port.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 38, the logs (decision 206): the nginx template kept nginx's default log format, which
 * writes every e-mailed link's `?token=…` to disk (and the Referer of each request a token page
 * makes), and the app's request log wrote the local provider's bearer ids (`lcs_…`, `lps_…`,
 * `lin_…`) in paths. Both now keep no query string and only the prefix of a bearer segment.
 */
const bearer = (prefix: string) => `${prefix}_${'Q7x-'.repeat(8)}`;
const emailedToken = 'v1.emailed-link-token-that-must-not-be-logged';

describe('the app request log', () => {
  const [target] = databaseTargets;
  let t: TestApp;
  const paths: string[] = [];

  beforeAll(async () => {
    if (!target) throw new Error('no database to test on');
    t = await createTestApp(target);
    // Every request's logger is a child of the app's: keep the paths its request lines name.
    const childOf = t.deps.logger.child.bind(t.deps.logger);
    vi.spyOn(t.deps.logger, 'child').mockImplementation((bindings, options) => {
      const child = childOf<string>(bindings, options);
      vi.spyOn(child, 'info').mockImplementation((entry: unknown) => {
        if (typeof entry === 'object' && entry !== null && 'path' in entry) {
          paths.push(String(entry.path));
        }
      });
      return child;
    });
  });
  afterAll(() => t?.close());

  it('masks the bearer id of a local checkout, portal or invoice page, and keeps no query', async () => {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    expect(sessionId).toMatch(/^lcs_/);
    expect((await browser(t, `/billing/local/checkout/${sessionId}`)).status).toBe(200);
    await browser(t, `/billing/local/portal/${bearer('lps')}`);
    await browser(t, `/billing/local/invoice/${bearer('lin')}`);
    await browser(t, `/invoice-order?token=${emailedToken}`);
    const logged = paths.join('\n');
    expect(logged).toContain('/billing/local/checkout/lcs_***');
    expect(logged).toContain('/billing/local/portal/lps_***');
    expect(logged).toContain('/billing/local/invoice/lin_***');
    for (const secret of [sessionId.slice(4), 'Q7x-Q7x-', emailedToken]) {
      expect(logged).not.toContain(secret);
    }
  });

  it('keeps paths without bearers as they are', () => {
    expect(loggablePath('/downloads/1.4.0/SHA256SUMS')).toBe('/downloads/1.4.0/SHA256SUMS');
    expect(loggablePath('/quotes/Q-2026-0001.pdf?token=abc')).toBe('/quotes/Q-2026-0001.pdf');
    expect(loggablePath(`/billing/local/portal/${bearer('lps')}/subscriptions/sub_1/cancel`)).toBe(
      '/billing/local/portal/lps_***/subscriptions/sub_1/cancel',
    );
  });
});

describe('the nginx template access log', () => {
  let upstream: Server;
  let nginx: Nginx;
  let work: string;

  beforeAll(async () => {
    upstream = createServer((_request, response) => response.end('ok'));
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const { port } = upstream.address() as AddressInfo;
    work = await mkdtemp(path.join(tmpdir(), 'orgsmith-nginx-log-'));
    nginx = await startNginx({
      dir: work,
      port: await freePort(),
      appServers: [`127.0.0.1:${port}`],
      assetsRoot: work,
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    upstream?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('writes no e-mailed token and no bearer path segment, in the request or the Referer', async () => {
    const site = 'https://orgsmith.io';
    const requests: Array<[string, string?]> = [
      [`/invoice-order?token=${emailedToken}`],
      [`/billing-portal?modal=help&token=${emailedToken}`],
      [`/billing/local/portal/${bearer('lps')}/subscriptions/sub_1/cancel`],
      // Percent-encoded, it is the same page to the app: nginx logs the decoded path.
      [`/billing/local/checkout/lcs%5F${bearer('lcs').slice(4)}`],
      ['/account/v1/invoice-orders/status', `${site}/invoice-order?token=${emailedToken}`],
      ['/billing/local/styles.css', `${site}/billing/local/portal/${bearer('lps')}`],
    ];
    for (const [target, referer] of requests) {
      const response = await fetch(`${nginx.url}${target}`, {
        headers: referer ? { Referer: referer } : {},
      });
      expect(response.status, target).toBe(200);
    }
    await vi.waitFor(async () =>
      expect(await nginx.accessLog()).toContain('/billing/local/styles.css'),
    );
    const log = await nginx.accessLog();
    for (const secret of [emailedToken, 'Q7x-Q7x-', 'emailed-link']) {
      expect(log).not.toContain(secret);
    }
    expect(log).toContain('"GET /invoice-order?*** HTTP/1.1" 200');
    expect(log).toContain(
      '"GET /billing/local/portal/lps_***/subscriptions/sub_1/cancel HTTP/1.1"',
    );
    expect(log).toContain('"GET /billing/local/checkout/lcs_*** HTTP/1.1"');
    expect(log).toContain(`"${site}/invoice-order?***"`);
    expect(log).toContain(`"${site}/billing/local/portal/lps_***"`);
  });
});

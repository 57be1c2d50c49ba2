import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';
import {
  createPostgresDatabase,
  startInstance,
  type Instance,
} from '../faults/support/instance.ts';
import {
  acknowledged,
  mailsOf,
  report,
  runLoad,
  send,
  submissions,
  tally,
  waitForMail,
} from '../faults/support/load.ts';
import { missingFromDatabase } from '../faults/support/stored.ts';
import { startNginx, type Nginx } from './support/nginx.ts';

const SMTP_PORT = 2571;
const PROXY_PORT = 3270;
const APP_PORTS = [3271, 3272] as const;
const CSRF = 'deploy-test-csrf-token';
const METRICS_TOKEN = 'deploy-test-metrics-token-0123456789abcdef';

/**
 * The deployment kit of deploy/ on this machine (issue 13): the app as the Dockerfile's final
 * stage lays it out (build, server, shared, production dependencies only), two instances on one
 * PostgreSQL, Debian's nginx with the repository's template in front.
 */
describe('deploy/: nginx in front of two instances on PostgreSQL', () => {
  let work: string;
  let app: string;
  let sink: SmtpSink;
  let postgres: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let instances: Instance[] = [];
  let nginx: Nginx;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'orgsmith-deploy-'));
    app = path.join(work, 'app');
    // The Dockerfile's app stage: these folders and `npm ci --omit=dev`, nothing else.
    for (const entry of ['package.json', 'package-lock.json', 'build', 'server', 'shared']) {
      await cp(entry, path.join(app, entry), { recursive: true });
    }
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: app,
      stdio: 'ignore',
    });
    sink = await startSmtpSink({ port: SMTP_PORT });
    postgres = await createPostgresDatabase();
    instances = await Promise.all(
      APP_PORTS.map((port) =>
        startInstance({
          port,
          cwd: app,
          env: {
            DATABASE_URL: postgres.url,
            SMTP_URL: sink.url,
            DATA_DIR: path.join(work, `data-${port}`),
            PUBLIC_BASE_URL: `http://127.0.0.1:${PROXY_PORT}`,
            METRICS_TOKEN,
          },
        }),
      ),
    );
    nginx = await startNginx({
      dir: path.join(work, 'nginx'),
      port: PROXY_PORT,
      appServers: APP_PORTS.map((port) => `127.0.0.1:${port}`),
      assetsRoot: path.join(app, 'build', 'client'),
    });
  }, 180_000);

  afterAll(async () => {
    await nginx?.stop();
    for (const instance of instances) await instance.kill();
    await sink?.close();
    await postgres?.drop();
    await rm(work, { recursive: true, force: true });
  });

  it('runs without dev dependencies, as the image does', async () => {
    const installed = await readdir(path.join(app, 'node_modules'));
    // (TypeScript stays: @react-router/node lists it as a peer.)
    for (const dev of ['vitest', 'vite', 'eslint', 'node', '@playwright']) {
      expect(installed).not.toContain(dev);
    }
    expect(await readdir(path.join(app, 'node_modules', '@react-router'))).not.toContain('dev');
    const health = await fetch(`${nginx.url}/readyz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ready', database: { kind: 'postgres' } });
  });

  it('caches shareable pages, never per-visit ones, and serves /assets/ itself', async () => {
    const first = await fetch(`${nginx.url}/imprint`);
    const body = await first.text();
    const second = await fetch(`${nginx.url}/imprint`);
    expect(second.headers.get('x-cache-status')).toBe('HIT');
    expect(await second.text()).toBe(body);
    expect(second.headers.get('content-security-policy')).toContain("script-src 'self' 'sha256-");
    const etag = second.headers.get('etag') ?? '';
    const revalidated = await fetch(`${nginx.url}/imprint`, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).toBe(304);

    for (const perVisit of ['/checkout-success', '/api/csrf-token']) {
      await fetch(`${nginx.url}${perVisit}`);
      const again = await fetch(`${nginx.url}${perVisit}`);
      expect(again.headers.get('x-cache-status'), perVisit).not.toBe('HIT');
    }

    const script = /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.css)"/.exec(body);
    const asset = script?.[1] ?? script?.[2] ?? '';
    expect(asset).toMatch(/^\/assets\//);
    const fromNginx = await fetch(`${nginx.url}${asset}`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(fromNginx.status).toBe(200);
    expect(fromNginx.headers.get('x-cache-status')).toBeNull(); // Not proxied.
    const fromApp = await fetch(`http://127.0.0.1:${APP_PORTS[0]}${asset}`);
    for (const header of [
      'cache-control',
      'content-security-policy',
      'cross-origin-opener-policy',
      'permissions-policy',
      'referrer-policy',
      'x-content-type-options',
      'x-frame-options',
    ]) {
      expect(fromNginx.headers.get(header), header).toBe(fromApp.headers.get(header));
    }
    expect(await fromNginx.text()).toBe(await fromApp.text());
    const missing = await fetch(`${nginx.url}/assets/nothing-here.js`);
    expect(missing.status).toBe(404);
  });

  it('keeps /metrics private: the proxy answers 404 whatever the token, the instance serves it', async () => {
    const bearer = { Authorization: `Bearer ${METRICS_TOKEN}` };
    for (const variant of ['/metrics', '/%6detrics', '//metrics', '/metrics?format=text']) {
      const res = await fetch(`${nginx.url}${variant}`, { headers: bearer });
      expect(res.status, variant).toBe(404);
      expect(await res.text(), variant).not.toContain('orgsmith_');
    }
    const direct = await fetch(`http://127.0.0.1:${APP_PORTS[0]}/metrics`, { headers: bearer });
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain('orgsmith_http_request_duration_seconds');
  });

  it('drives a trial, a contact message and a local purchase through the proxy', async () => {
    const run = `kit-${Date.now()}`;
    const [contact, trial] = submissions(run, 2);
    if (!contact || !trial) throw new Error('no submissions');
    expect((await send(nginx.url, contact)).status).toBe(204);
    expect((await send(nginx.url, trial)).status).toBe(204);
    expect((await waitForMail(sink, [contact, trial], 20_000)).missing).toEqual([]);
    expect(mailsOf(sink, trial)[0]?.text).toMatch(/[A-Z0-9]{4,}-[A-Z0-9]{4,}/);

    const headers = {
      Cookie: `XSRF-TOKEN=${CSRF}`,
      'X-XSRF-TOKEN': CSRF,
      'Content-Type': 'application/json',
      'X-Forwarded-For': '203.0.113.50',
    };
    const checkout = await fetch(`${nginx.url}/account/v1/checkout`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        edition: 'Pro',
        quantity: 4,
        billingPeriod: 'monthly',
        billingCurrency: 'USD',
        successUrl: `${nginx.url}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${nginx.url}/pricing`,
        // The company the checkout dialog asks for (decision 219).
        companyName: 'Deploy Test GmbH',
        addressLine: 'Hauptstraße 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
      }),
    });
    expect(checkout.status, await checkout.clone().text()).toBe(201);
    const { sessionId } = (await checkout.json()) as { sessionId: string };
    const buyer = `${run}-buyer@example.com`;
    const paid = await fetch(`${nginx.url}/billing/local/checkout/${sessionId}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Cookie: `XSRF-TOKEN=${CSRF}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        _csrf: CSRF,
        email: buyer,
        cardNumber: '4242 4242 4242 4242',
        cardExpiry: '12 / 34',
        cardCvc: '123',
      }).toString(),
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `${nginx.url}/checkout-success?session_id=${sessionId}`,
    );
    const licenceMail = await sink.waitForMail({ to: buyer }, 20_000);
    expect(licenceMail.subject).toMatch(/Orgsmith/);
  });

  it('believes X-Forwarded-For and X-Forwarded-Proto only as the proxy sets them', async () => {
    // Per-IP limit of contact messages (20 an hour) keyed by the client nginx reports. With two
    // instances each may admit 10% of the limit from memory before the database confirms
    // (decision 085): the first 20 pass, at most 2 more of the next 10.
    const run = `xff-${Date.now()}`;
    const list = submissions(run, 64).filter((s) => s.kind === 'contact');
    const sameClient = list.slice(0, 30).map((s) => ({ ...s, ip: '203.0.113.77' }));
    const statuses: number[] = [];
    for (const s of sameClient) statuses.push((await send(nginx.url, s)).status);
    expect(statuses.slice(0, 20).every((status) => status === 204)).toBe(true);
    const admitted = statuses.filter((status) => status === 204).length;
    expect(admitted).toBeLessThanOrEqual(22);
    expect(statuses.slice(20).filter((status) => status === 429).length).toBe(30 - admitted);
    const other = list[30];
    if (!other) throw new Error('no submission');
    expect((await send(nginx.url, { ...other, ip: '203.0.113.78' })).status).toBe(204);

    // nginx overwrites X-Forwarded-Proto with the scheme the client really used (http here).
    const page = await fetch(`${nginx.url}/imprint?proto-check`, {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(page.headers.get('strict-transport-security')).toBeNull();
    const direct = await fetch(`http://127.0.0.1:${APP_PORTS[1]}/healthz`, {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(direct.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('loses nothing when an instance is killed mid-run; only its in-flight requests fail', async () => {
    const [a] = instances;
    if (!a) throw new Error('no instance');
    let killedAt = 0;
    const outcomes = await runLoad({
      submissions: submissions(`kill-${Date.now()}`, 200),
      concurrency: 10,
      target: () => nginx.url,
      onOutcome: async (_o, done) => {
        if (!killedAt && acknowledged(done).length >= 100) {
          killedAt = Date.now();
          await a.kill();
        }
      },
    });
    const acked = acknowledged(outcomes).map((o) => o.submission);
    const failed = outcomes.filter((o) => o.status !== 204);
    const { seconds, missing } = await waitForMail(sink, acked, 45_000);
    const notStored = await missingFromDatabase({ databaseUrl: postgres.url }, acked);
    const figures = tally(sink, acked);
    report('deploy: instance killed behind nginx', {
      sent: outcomes.length,
      ...figures,
      failed: failed.length,
      failedStatuses: [...new Set(failed.map((o) => o.status))].join('/') || '-',
      notStored: notStored.length,
      mailedWithinSeconds: seconds.toFixed(1),
    });
    // At most the requests the killed instance was holding (10 in flight in all) fail, with 502.
    expect(failed.length).toBeLessThanOrEqual(10);
    expect(failed.every((o) => o.status === 502)).toBe(true);
    expect(missing).toEqual([]);
    expect(notStored).toEqual([]);
    expect(figures.duplicated).toBeLessThanOrEqual(4);
  });

  it('ships a compose file and a Dockerfile that say what the test ran', async () => {
    const compose = parseYaml(await readFile('deploy/compose.yaml', 'utf8')) as {
      services: Record<
        string,
        {
          build?: { target?: string };
          environment?: Record<string, string>;
          volumes?: string[];
        }
      >;
      volumes?: Record<string, unknown>;
    };
    expect(Object.keys(compose.services).sort()).toEqual([
      'app1',
      'app2',
      'pgbouncer',
      'postgres',
      'proxy',
    ]);
    expect(compose.services.app1?.build?.target).toBe('app');
    // The pool through PgBouncer, LISTEN and migrations direct (tests/deploy/pgbouncer.test.ts).
    expect(compose.services.pgbouncer?.build?.target).toBe('pgbouncer');
    expect(compose.services.app1?.environment?.DATABASE_URL).toContain('@pgbouncer:6432/');
    expect(compose.services.app1?.environment?.DATABASE_DIRECT_URL).toContain('@postgres:5432/');
    expect(compose.services.proxy?.build?.target).toBe('proxy');
    expect(compose.services.proxy?.environment?.APP_SERVERS).toContain('app2:3000');
    // Scheduled backups, as /security describes them, into one volume both instances share.
    for (const app of ['app1', 'app2']) {
      expect(compose.services[app]?.environment?.BACKUP_DIR).toBe('/backups');
      expect(compose.services[app]?.volumes).toContain('backups:/backups');
    }
    expect(Object.keys(compose.volumes ?? {})).toContain('backups');
    const dockerfile = await readFile('deploy/Dockerfile', 'utf8');
    const appStage = dockerfile.slice(
      dockerfile.indexOf('FROM node:24-bookworm-slim AS app'),
      dockerfile.indexOf('AS proxy'),
    );
    expect(appStage).toContain('USER node');
    expect(appStage).toMatch(/mkdir -p \/data \/backups && chown node:node \/data \/backups/);
    expect(appStage).toContain('HEALTHCHECK');
    expect(appStage).toMatch(/FROM node:24/);
    expect(dockerfile).toContain('npm prune --omit=dev');
    expect(dockerfile).toContain('COPY deploy/nginx/templates/ /etc/nginx/templates/');
    const template = await readFile('deploy/nginx/templates/orgsmith.conf.template', 'utf8');
    expect(template).toMatch(/location = \/metrics \{\s*return 404;\s*\}/);
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startInstance, type Instance } from '#tests/faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';
import { startAndExit as startServerUntilExit } from './support/start-and-exit.ts';

/**
 * Issue 17, row 1: a public deployment without Stripe keys used to start and sell Enterprise
 * licences for the public test card 4242…. Now it refuses to start unless test payments are
 * asked for by name, and then every page says so.
 */
/** A server with these settings, on a data directory of its own, started until it exits. */
async function startAndExit(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-test-payments-'));
  try {
    return await startServerUntilExit({ DATA_DIR: dataDir, ...env });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('test payments never go public', () => {
  it('a public origin without Stripe keys refuses to start, in one line naming both keys', async () => {
    const { code, output } = await startAndExit({ PUBLIC_BASE_URL: 'https://orgsmith.example' });
    expect(code).toBe(1);
    const lines = output.split('\n').filter((line) => line.includes('STRIPE_SECRET_KEY'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('STRIPE_WEBHOOK_SECRET');
    expect(output).not.toContain('listening');
  });

  it('a Stripe key without the webhook secret is refused on a public origin too', async () => {
    const { code, output } = await startAndExit({
      PUBLIC_BASE_URL: 'https://orgsmith.example',
      STRIPE_SECRET_KEY: 'sk_live_123',
    });
    expect(code).toBe(1);
    expect(output).toContain('STRIPE_WEBHOOK_SECRET');
  });

  it('deploy/compose.yaml will not start without the Stripe variables', async () => {
    const compose = parseYaml(await readFile('deploy/compose.yaml', 'utf8')) as {
      'x-app': { environment: Record<string, string> };
    };
    const environment = compose['x-app'].environment;
    expect(environment.STRIPE_SECRET_KEY).toMatch(/^\$\{STRIPE_SECRET_KEY:\?/);
    expect(environment.STRIPE_WEBHOOK_SECRET).toMatch(/^\$\{STRIPE_WEBHOOK_SECRET:\?/);
  });

  describe('with PAYMENT_PROVIDER=local on a public origin', () => {
    let instance: Instance;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-test-mode-'));
      instance = await startInstance({
        timeoutMs: 120_000,
        port: await freePort(),
        env: {
          DATA_DIR: dataDir,
          PUBLIC_BASE_URL: 'https://staging.orgsmith.example',
          PAYMENT_PROVIDER: 'local',
          // No SMTP server in tests: e-mails as files, on purpose (decision 217).
          MAIL_TRANSPORT: 'file',
          LOG_LEVEL: 'warn',
        },
      });
    });
    afterAll(async () => {
      await instance?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('every page shows the test-mode notice, the 404 page too', async () => {
      for (const page of ['/', '/pricing', '/download', '/imprint', '/checkout-success', '/nope']) {
        const html = await (await fetch(`${instance.url}${page}`)).text();
        expect(html, page).toContain('aria-label="Test mode"');
        expect(html, page).toContain('purchases on this site use test payments');
      }
    });
  });

  describe('on localhost without keys (the quick start)', () => {
    let instance: Instance;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-quick-start-'));
      instance = await startInstance({
        timeoutMs: 120_000,
        port: await freePort(),
        env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      });
    });
    afterAll(async () => {
      await instance?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('starts on the local provider and shows no notice', async () => {
      const html = await (await fetch(`${instance.url}/pricing`)).text();
      expect(html).not.toContain('aria-label="Test mode"');
    });
  });
});

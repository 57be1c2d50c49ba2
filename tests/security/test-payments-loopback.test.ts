import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '#tests/faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';
import { startAndExit } from './support/start-and-exit.ts';

/**
 * Issue 25, row 5 (decision 156): `npm start` with no PUBLIC_BASE_URL and no Stripe keys (and a
 * bare `docker run` of the image) listened on every interface, and a request with
 * `Host: www.orgsmith.io` bought Paid Enterprise 25 with the public test card 4242… while the
 * pages showed no notice: the guard believed the PUBLIC_BASE_URL it defaulted to localhost. Now
 * such a server listens on loopback only and says so; listening elsewhere needs Stripe keys or
 * PAYMENT_PROVIDER=local, whose notice every page shows whatever the Host.
 */

/** An address of this machine other hosts can reach: a non-loopback IPv4, else a global IPv6. */
function reachableAddress(): string | undefined {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const external = addresses.filter((info) => !info.internal);
  const v4 = external.find((info) => info.family === 'IPv4');
  const v6 = external.find((info) => info.family === 'IPv6' && !info.address.startsWith('fe80'));
  if (v4) return v4.address;
  return v6 ? `[${v6.address}]` : undefined;
}
const address = reachableAddress();
const hasIpv6Loopback = Object.values(networkInterfaces()).some((list) =>
  (list ?? []).some((info) => info.internal && info.address === '::1'),
);

/** A GET with the Host header a browser sends for `host` (fetch may not set Host itself). */
function get(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Host: host }, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

const NOTICE = 'aria-label="Test mode"';

describe('test payments without keys stay on this machine', () => {
  let instance: Instance;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-loopback-'));
    instance = await startInstance({
      timeoutMs: 120_000,
      port: await freePort(),
      // As `npm start` with nothing configured: no PUBLIC_BASE_URL, no keys, no HOST.
      env: { DATA_DIR: dataDir, PUBLIC_BASE_URL: '', HOST: '', PAYMENT_PROVIDER: '' },
    });
  });
  afterAll(async () => {
    await instance?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!address)(
    `cannot be reached on ${address ?? 'a non-loopback address (this machine has none: skipped)'}`,
    async () => {
      const tries = ['/healthz', '/pricing'].map((page) =>
        get(`http://${address}:${instance.port}${page}`, 'www.orgsmith.io'),
      );
      for (const attempt of tries) await expect(attempt).rejects.toThrow(/ECONNREFUSED/);
    },
  );

  it('answers on 127.0.0.1 and ::1, so localhost works whichever it resolves to', async () => {
    expect((await fetch(`http://127.0.0.1:${instance.port}/healthz`)).status).toBe(200);
    if (hasIpv6Loopback) {
      expect((await fetch(`http://[::1]:${instance.port}/healthz`)).status).toBe(200);
    }
    expect((await fetch(`http://localhost:${instance.port}/healthz`)).status).toBe(200);
  });

  it('says in its start line that it listens on loopback only, and why', () => {
    const start = instance.log
      .join('')
      .split('\n')
      .filter((line) => line.includes('"msg":"listening'));
    expect(start).toHaveLength(1);
    expect(start[0]).toContain('listening on loopback only (127.0.0.1');
    expect(start[0]).toContain('test payments');
  });
});

describe('listening beyond loopback', () => {
  it('without keys, HOST=0.0.0.0 refuses to start in one line naming the ways out', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-host-'));
    try {
      const { code, output } = await startAndExit({ DATA_DIR: dataDir, HOST: '0.0.0.0' });
      expect(code).toBe(1);
      const lines = output.split('\n').filter((line) => line.includes('HOST=0.0.0.0'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
      expect(lines[0]).toContain('PAYMENT_PROVIDER=local');
      expect(output).not.toContain('"msg":"listening');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a bare `docker run` of the image (its ENV, no keys) refuses to start', async () => {
    const dockerfile = await readFile('deploy/Dockerfile', 'utf8');
    const appStage = dockerfile.slice(dockerfile.indexOf('AS app'), dockerfile.indexOf('AS proxy'));
    const env = Object.fromEntries(
      [...appStage.matchAll(/^\s*(?:ENV\s+)?([A-Z_]+)=(\S+?)\s*\\?$/gm)]
        .map(([, name = '', value = '']) => [name, value])
        // A free port instead of the image's 3000, which this machine may be using.
        .filter(([name]) => name !== 'PORT'),
    );
    expect(env.HOST).toBe('0.0.0.0');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-image-'));
    try {
      const { code, output } = await startAndExit({ ...env, DATA_DIR: dataDir });
      expect(code).toBe(1);
      expect(output).toContain('required to take payments when listening on HOST=0.0.0.0');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  describe('with PAYMENT_PROVIDER=local and HOST=0.0.0.0', () => {
    let instance: Instance;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-host-local-'));
      instance = await startInstance({
        timeoutMs: 120_000,
        port: await freePort(),
        env: {
          DATA_DIR: dataDir,
          PUBLIC_BASE_URL: '',
          HOST: '0.0.0.0',
          PAYMENT_PROVIDER: 'local',
          LOG_LEVEL: 'warn',
        },
      });
    });
    afterAll(async () => {
      await instance?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('every page shows the test-mode notice for Host: www.orgsmith.io', async () => {
      const base = `http://${address ?? '127.0.0.1'}:${instance.port}`;
      for (const page of ['/', '/pricing', '/download', '/checkout-success', '/nope']) {
        const { body } = await get(`${base}${page}`, 'www.orgsmith.io');
        expect(body, page).toContain(NOTICE);
        expect(body, page).toContain('purchases on this site use test payments');
      }
    });
  });
});

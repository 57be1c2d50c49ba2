import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { startInstance, type Instance } from '#tests/faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * Issue 17: who the client is. Rate limits count an IPv6 client per /64 (before, every address of
 * a /64 had its own allowance); X-Forwarded-For counts only from `TRUST_PROXY`; a client's
 * `X-Request-Id` reaches the log only in a safe shape.
 */
const csrf = {
  Cookie: 'XSRF-TOKEN=tok',
  'X-XSRF-TOKEN': 'tok',
  'Content-Type': 'application/json',
};

function contactFrom(instance: Instance, n: number, forwardedFor: string): Promise<Response> {
  return fetch(`${instance.url}/api/submitContactForm`, {
    method: 'POST',
    headers: { ...csrf, 'X-Forwarded-For': forwardedFor },
    body: JSON.stringify({ name: 'Rita', emailAddress: `rita${n}@example.com`, message: 'Hi' }),
  });
}

async function withInstance(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-client-identity-'));
  const instance = await startInstance({
    timeoutMs: 120_000,
    port: await freePort(),
    env: { DATA_DIR: dataDir, ...env },
  });
  return {
    instance,
    async close() {
      await instance.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const { limit } = rateLimitRules.contactPerIp;

describe('behind a trusted proxy (the default: loopback and private ranges)', () => {
  let server: Awaited<ReturnType<typeof withInstance>>;
  beforeAll(async () => {
    server = await withInstance({ LOG_LEVEL: 'info' });
  });
  afterAll(() => server?.close());

  it('counts every address of one IPv6 /64 as one client', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= limit; n++) {
      const res = await contactFrom(server.instance, n, `2001:db8:77:12::${(n + 1).toString(16)}`);
      statuses.push(res.status);
    }
    expect(statuses.slice(0, limit).every((status) => status === 204)).toBe(true);
    expect(statuses[limit]).toBe(429);
    // Another /64 is another client.
    expect((await contactFrom(server.instance, 999, '2001:db8:77:13::1')).status).toBe(204);
  });

  it('logs a well-formed X-Request-Id, and a new id instead of anything else', async () => {
    const sent = ['proxy-id_1.2', 'x'.repeat(65), 'a"b', 'id with spaces', '{"level":60}'];
    for (const id of sent) {
      await fetch(`${server.instance.url}/api/releases`, {
        headers: { 'X-Request-Id': id },
      });
    }
    await fetch(`${server.instance.url}/pricing?after-ids`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ids = server.instance.log
      .join('')
      .split('\n')
      .filter((line) => line.includes('"requestId"'))
      .map((line) => (JSON.parse(line) as { requestId: string }).requestId);
    expect(ids).toContain('proxy-id_1.2');
    for (const id of sent.slice(1)) expect(ids).not.toContain(id);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  });
});

describe('with TRUST_PROXY=none', () => {
  let server: Awaited<ReturnType<typeof withInstance>>;
  beforeAll(async () => {
    server = await withInstance({ LOG_LEVEL: 'warn', TRUST_PROXY: 'none' });
  });
  afterAll(() => server?.close());

  it('ignores X-Forwarded-For: a client cannot rotate its way past the limit', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= limit; n++) {
      statuses.push((await contactFrom(server.instance, n, `203.0.113.${n + 1}`)).status);
    }
    expect(statuses[limit]).toBe(429);
  });
});

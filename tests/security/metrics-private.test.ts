import { readdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '#tests/faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * Issue 18, item 3 (decision 131): metrics tell anyone who reads them our traffic, so the server
 * process keeps them off the public port unless a token opens them, and on `METRICS_PORT` serves
 * them on loopback only. The process wires the outbox worker, the page store and the listener.
 */
describe('metrics of a server process on METRICS_PORT', () => {
  let dataDir: string;
  let metricsPort: number;
  let instance: Instance;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-metrics-'));
    metricsPort = await freePort();
    instance = await startInstance({
      port: await freePort(),
      env: { DATA_DIR: dataDir, METRICS_PORT: String(metricsPort), SMTP_URL: '' },
    });
  });
  afterAll(async () => {
    await instance?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('serves them on loopback only, and the public port has no /metrics', async () => {
    const publicAnswer = await fetch(`${instance.url}/metrics`, {
      headers: { Authorization: 'Bearer anything-at-all-0123456789abcdef01234' },
    });
    expect(publicAnswer.status).toBe(404);
    expect(await publicAnswer.text()).not.toContain('orgsmith_');
    expect(instance.log.join('')).toContain(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(await scrape()).toContain('process_resident_memory_bytes');
  });

  it('counts what the process did: a stored page served twice, a contact message sent', async () => {
    for (let n = 0; n < 2; n++) expect((await fetch(`${instance.url}/imprint`)).status).toBe(200);
    const csrf = 'metrics-test-csrf-token';
    const contact = await fetch(`${instance.url}/api/submitContactForm`, {
      method: 'POST',
      headers: {
        Cookie: `XSRF-TOKEN=${csrf}`,
        'X-XSRF-TOKEN': csrf,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ name: 'Ops', emailAddress: 'ops@example.com', message: 'Metrics?' }),
    });
    expect(contact.status).toBe(204);
    const deadline = Date.now() + 20_000;
    let text = '';
    while (Date.now() < deadline) {
      text = await scrape();
      if (text.includes('orgsmith_outbox_deliveries_total{outcome="sent"} 1')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await readdir(path.join(dataDir, 'mail'))).toHaveLength(1);
    expect(text).toContain('orgsmith_outbox_deliveries_total{outcome="sent"} 1');
    expect(text).toContain('orgsmith_outbox_pending_messages 0');
    expect(text).toContain(
      'orgsmith_http_request_duration_seconds_count{method="POST",route="/api/submitContactForm",status="204"} 1',
    );
    expect(text).toMatch(/orgsmith_page_store_requests_total\{result="hit"\} [1-9]/);
    expect(text).toMatch(/orgsmith_page_store_bytes [1-9]\d{4,}/);
  });

  it('closes the metrics listener on SIGTERM with the rest', async () => {
    expect(await instance.stop()).toBe(0);
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });
});

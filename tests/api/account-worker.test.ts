import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { parseEnv } from '#server/env.ts';
import { createLogger } from '#server/platform/logger.ts';
import { createRuntime, type Runtime } from '#server/runtime.ts';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';
import { csrfHeaders } from '../support/test-app.ts';
import { databaseTargets } from '../support/databases.ts';
import { OUTBOX_CHANNEL, OUTBOX_FALLBACK_POLL_MS } from '#server/platform/email/deliver-outbox.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';

/** The runtime as `server/main.ts` starts it: the outbox worker delivers what requests queue. */
describe('outbox worker in the runtime', () => {
  let sink: SmtpSink;
  let runtime: Runtime;
  let stopWorkers: () => Promise<void>;
  let dataDir: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-worker-'));
    const env = parseEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SMTP_URL: sink.url,
      SUPPORT_EMAIL: 'help@orgsmith.test',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime(env, createLogger('silent'));
    stopWorkers = runtime.startWorkers();
  });
  afterAll(async () => {
    await stopWorkers();
    await runtime.close();
    await sink.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers the trial licence and the contact message through SMTP right after the requests', async () => {
    const app = buildApp(runtime.deps);
    const started = Date.now();
    const trial = await app.request(
      '/account/v1/licenses/trial?emailAddress=worker%2Btest%40example.com&productId=orgsmith-cli',
      { method: 'POST', headers: csrfHeaders() },
    );
    expect(trial.status).toBe(204);
    const contact = await app.request('/api/submitContactForm', {
      method: 'POST',
      headers: { ...csrfHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Wes', emailAddress: 'wes@example.com', message: 'Hi there' }),
    });
    expect(contact.status).toBe(204);

    const licenceMail = await sink.waitForMail({ to: 'worker+test@example.com' }, 10_000);
    expect(licenceMail.subject).toBe('Your Orgsmith trial licence key');
    expect(licenceMail.from).toBe('Orgsmith <no-reply@orgsmith.io>');
    expect(licenceMail.text).toMatch(/ORGS(-[0-9A-Z]{4}){7}/);
    expect(licenceMail.html).toContain('End User License Agreement');
    const supportMail = await sink.waitForMail({ to: 'help@orgsmith.test' }, 10_000);
    expect(supportMail.replyTo).toBe('wes@example.com');
    expect(supportMail.subject).toBe('Contact form: Wes');
    // Nudged, not waiting for the next poll only.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('delivers an e-mail queued without waking it, woken by NOTIFY long before its fallback poll', async () => {
    // Queued the way another process would: a plain insert, no `wakeOutbox` (decision 238).
    await createOutboxRepository(runtime.deps.database.db).enqueue(
      { kind: 'notify-test', to: 'notified@example.com', subject: 'S', text: 'T', html: 'H' },
      new Date(),
    );
    const started = Date.now();
    await sink.waitForMail({ to: 'notified@example.com' }, OUTBOX_FALLBACK_POLL_MS - 5_000);
    expect(Date.now() - started).toBeLessThan(OUTBOX_FALLBACK_POLL_MS - 5_000);
  });
});

describe.each(databaseTargets)('the outbox trigger on $name', (target) => {
  it('notifies the outbox channel once per queuing statement, to any connection listening', async () => {
    const handle = await target.open();
    try {
      const heard: Array<string | undefined> = [];
      const unlisten = await handle.listen(OUTBOX_CHANNEL, (payload) => heard.push(payload));
      const outbox = createOutboxRepository(handle.db);
      await outbox.enqueue(
        { kind: 'notify-test', to: 'a@example.com', subject: 'S', text: 'T', html: 'H' },
        new Date(),
      );
      for (let wait = 0; wait < 50 && heard.length === 0; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(heard).toEqual(['']);
      await unlisten();
    } finally {
      await handle.close();
    }
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { createOutboxDelivery } from '#server/platform/email/deliver-outbox.ts';
import { createFileTransport } from '#server/platform/email/file-transport.ts';
import type { MailTransport } from '#server/platform/email/outgoing-email.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { databaseTargets } from '../support/databases.ts';

/**
 * Issue 25, smaller item 8: every e-mail's recipient address was logged at info level (personal
 * data in logs). The worker and the transports log a masked recipient (`j***@example.com`) and
 * mask any address a relay's answer names, at every level (decision 159).
 */
const now = new Date('2026-01-15T10:00:00Z');
const FROM = 'Orgsmith <hello@orgsmith.io>';

function recordingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
  return { logger, text: () => lines.join('') };
}

function mailTo(to: string) {
  return { kind: 'test-message', to, subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };
}

/** A relay that names the recipient when it refuses, as real ones do. */
function refusingRelay(responseCode: number): MailTransport {
  return {
    name: 'smtp',
    send: (email) =>
      Promise.reject(
        Object.assign(
          new Error(
            `Can't send mail - all recipients were rejected: 550 5.1.1 <${email.to}>: Recipient address rejected`,
          ),
          {
            responseCode,
          },
        ),
      ),
    close: () => undefined,
  };
}

describe.each(databaseTargets)('recipients in the log on $name', (target) => {
  let handle: DatabaseHandle;
  let dataDir: string;
  beforeAll(async () => {
    handle = await target.open();
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-masked-'));
  });
  afterAll(async () => {
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the file transport and the worker log a masked recipient only', async () => {
    const log = recordingLogger();
    await createOutboxRepository(handle.db).enqueue(mailTo('jane.doe@customer.example'), now);
    const delivery = createOutboxDelivery({
      db: handle.db,
      transport: createFileTransport(dataDir, log.logger),
      from: FROM,
      clock: () => now,
      logger: log.logger,
    });
    expect(await delivery.deliverDue()).toMatchObject({ sent: 1 });
    expect(log.text()).toContain('"to":"j***@customer.example"');
    expect(log.text()).not.toContain('jane.doe');
  });

  it('a relay’s refusal is logged with the address masked, retried or given up', async () => {
    for (const [code, to] of [
      [451, 'retry.person@customer.example'],
      [550, 'gone.person@customer.example'],
    ] as const) {
      const log = recordingLogger();
      await createOutboxRepository(handle.db).enqueue(mailTo(to), now);
      const delivery = createOutboxDelivery({
        db: handle.db,
        transport: refusingRelay(code),
        from: FROM,
        clock: () => now,
        logger: log.logger,
      });
      expect(await delivery.deliverDue()).toMatchObject(
        code === 550 ? { failed: 1 } : { retrying: 1 },
      );
      expect(log.text()).toContain(`<${to.charAt(0)}***@customer.example>`);
      expect(log.text()).not.toContain(to);
    }
  });
});

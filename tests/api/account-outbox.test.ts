import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, type DatabaseHandle } from '#server/platform/db/client.ts';
import { emailOutbox } from '#server/platform/db/schema.ts';
import { createOutboxDelivery, retryDelayMs } from '#server/platform/email/deliver-outbox.ts';
import { createFileTransport } from '#server/platform/email/file-transport.ts';
import type { MailTransport } from '#server/platform/email/outgoing-email.ts';
import {
  createOutboxRepository,
  type QueuedEmail,
} from '#server/platform/email/outbox-repository.ts';
import { createSmtpTransport } from '#server/platform/email/smtp-transport.ts';
import { createLogger } from '#server/platform/logger.ts';
import { databaseTargets } from '../support/databases.ts';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';

const FROM = 'Orgsmith <no-reply@orgsmith.io>';
const logger = createLogger('silent');

function email(n: number, overrides: Partial<QueuedEmail> = {}): QueuedEmail {
  return {
    kind: 'test-message',
    to: `person${n}@example.com`,
    replyTo: null,
    subject: `Message ${n} — ünïcode`,
    text: `Plain body ${n}`,
    html: `<p>HTML body ${n}</p>`,
    ...overrides,
  };
}

/** A second connection pool to the same PostgreSQL database: a second server instance. */
async function secondInstance(handle: DatabaseHandle): Promise<DatabaseHandle> {
  const result = z
    .object({ rows: z.array(z.object({ name: z.string() })) })
    .parse(await handle.db.execute(sql`select current_database() as name`));
  const url = new URL(
    process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  url.pathname = `/${result.rows[0]?.name ?? ''}`;
  return openDatabase({ databaseUrl: url.toString() });
}

describe.each(databaseTargets)('e-mail outbox on $name', (target) => {
  let handle: DatabaseHandle;
  let sink: SmtpSink;
  let now: Date;
  const clock = () => now;

  beforeAll(async () => {
    handle = await target.open();
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    await handle.close();
  });
  beforeEach(async () => {
    now = new Date('2026-01-15T10:00:00Z');
    await handle.db.delete(emailOutbox);
  });

  it('delivers a queued e-mail over SMTP once, with both bodies, then clears the bodies', async () => {
    const outbox = createOutboxRepository(handle.db);
    const row = await outbox.enqueue(email(1, { replyTo: 'visitor@example.com' }), now);
    const transport = createSmtpTransport(sink.url);
    const delivery = createOutboxDelivery({ db: handle.db, transport, from: FROM, clock, logger });

    expect(await delivery.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    transport.close();

    const mails = sink.mailsFor({ to: 'person1@example.com' });
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe('Message 1 — ünïcode');
    expect(mail?.from).toBe(FROM);
    expect(mail?.replyTo).toBe('visitor@example.com');
    expect(mail?.messageId).toBe(`<${row.messageId}@orgsmith.io>`);
    expect(mail?.text).toBe('Plain body 1');
    expect(mail?.html).toContain('<p>HTML body 1</p>');

    const stored = await outbox.findById(row.id);
    expect(stored).toMatchObject({ status: 'sent', attempts: 1, textBody: null, htmlBody: null });
    expect(stored?.sentAt?.toISOString()).toBe(now.toISOString());
  });

  it('sends attachments over SMTP, byte for byte, then clears them with the bodies', async () => {
    const outbox = createOutboxRepository(handle.db);
    const pdf = Buffer.from('%PDF-1.7\n\u0000\u00ff binary bytes\n%%EOF\n', 'latin1');
    const row = await outbox.enqueue(
      email(9, {
        attachments: [
          { filename: 'Q-2026-0009.pdf', contentType: 'application/pdf', content: pdf },
        ],
      }),
      now,
    );
    expect(row.attachments).toHaveLength(1);
    const transport = createSmtpTransport(sink.url);
    const delivery = createOutboxDelivery({ db: handle.db, transport, from: FROM, clock, logger });
    expect(await delivery.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    transport.close();

    const [mail] = sink.mailsFor({ to: 'person9@example.com' });
    expect(mail?.text).toBe('Plain body 9');
    expect(mail?.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['Q-2026-0009.pdf', 'application/pdf'],
    ]);
    expect(mail?.attachments[0]?.content.equals(pdf)).toBe(true);
    const stored = await outbox.findById(row.id);
    expect(stored).toMatchObject({
      status: 'sent',
      textBody: null,
      htmlBody: null,
      attachments: null,
    });
  });

  it('refuses an attachment with a path for a name, or too heavy to relay', async () => {
    const outbox = createOutboxRepository(handle.db);
    const content = Buffer.from('x');
    for (const filename of ['../etc/passwd', 'a\r\nBcc: x@example.com.pdf', '', '.hidden']) {
      await expect(
        outbox.enqueue(
          email(10, { attachments: [{ filename, contentType: 'text/plain', content }] }),
          now,
        ),
      ).rejects.toThrow(/not an attachment name/);
    }
    const heavy = Buffer.alloc(5 * 1024 * 1024 + 1);
    await expect(
      outbox.enqueue(
        email(10, {
          attachments: [{ filename: 'big.pdf', contentType: 'application/pdf', content: heavy }],
        }),
        now,
      ),
    ).rejects.toThrow(/exceed/);
  });

  it('keeps a message while the SMTP server is down and delivers it once when it is back', async () => {
    const outbox = createOutboxRepository(handle.db);
    const row = await outbox.enqueue(email(2), now);
    const transport = createSmtpTransport(sink.url);
    const delivery = createOutboxDelivery({ db: handle.db, transport, from: FROM, clock, logger });

    await sink.stop();
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    const waiting = await outbox.findById(row.id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(waiting?.nextAttemptAt.getTime()).toBe(now.getTime() + retryDelayMs(1));

    await sink.start();
    now = new Date(now.getTime() + retryDelayMs(1) - 1000);
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    now = new Date(now.getTime() + 1000);
    expect(await delivery.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    now = new Date(now.getTime() + 24 * 3600_000);
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    transport.close();

    expect(sink.mailsFor({ to: 'person2@example.com' })).toHaveLength(1);
    expect(await outbox.findById(row.id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('backs off exponentially and gives up after the last attempt', async () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(30)).toBe(3_600_000);
    const outbox = createOutboxRepository(handle.db);
    const row = await outbox.enqueue(email(3), now);
    const failing: MailTransport = {
      name: 'broken',
      send: () => Promise.reject(new Error('451 try later')),
      close: () => undefined,
    };
    const delivery = createOutboxDelivery({
      db: handle.db,
      transport: failing,
      from: FROM,
      clock,
      logger,
      maxAttempts: 3,
    });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const report = await delivery.deliverDue();
      expect(report).toEqual(
        attempt < 3 ? { sent: 0, retrying: 1, failed: 0 } : { sent: 0, retrying: 0, failed: 1 },
      );
      // The worker sleeps until the retry is due, not a whole fallback poll (decision 243).
      expect(await delivery.nextClaimAt()).toEqual(
        attempt < 3 ? new Date(now.getTime() + retryDelayMs(attempt)) : undefined,
      );
      now = new Date(now.getTime() + retryDelayMs(attempt));
    }
    expect(await outbox.findById(row.id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: '451 try later',
    });
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it('gives up at once when the receiving server rejects the mailbox', async () => {
    const outbox = createOutboxRepository(handle.db);
    const row = await outbox.enqueue(email(4), now);
    const rejecting: MailTransport = {
      name: 'rejecting',
      send: () =>
        Promise.reject(Object.assign(new Error('550 no such user'), { responseCode: 550 })),
      close: () => undefined,
    };
    const delivery = createOutboxDelivery({
      db: handle.db,
      transport: rejecting,
      from: FROM,
      clock,
      logger,
    });
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(await outbox.findById(row.id)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('re-offers a message whose worker died mid-send once its lease ran out', async () => {
    const outbox = createOutboxRepository(handle.db);
    await outbox.enqueue(email(5), now);
    const claimed = await outbox.claimDue(now, 10, 60_000);
    expect(claimed).toHaveLength(1);
    expect(await outbox.claimDue(now, 10, 60_000)).toHaveLength(0);
    const transport = createSmtpTransport(sink.url);
    const delivery = createOutboxDelivery({ db: handle.db, transport, from: FROM, clock, logger });
    // A worker that has reached the database all along takes the lapsed claim over, and knows
    // to look again when the lease runs out.
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await delivery.nextClaimAt()).toEqual(new Date(now.getTime() + 60_000));
    now = new Date(now.getTime() + 60_000);
    expect(await delivery.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    transport.close();
    // The dead worker's late report must not overwrite the outcome.
    const [first] = claimed;
    if (first) await outbox.markForRetry(first, now, 'late');
    expect(await outbox.findById(first?.id ?? 0)).toMatchObject({
      status: 'sent',
      lastError: null,
    });
  });

  it('keeps a claim its worker renews, and gives a dead worker’s claims back at a restart', async () => {
    const outbox = createOutboxRepository(handle.db);
    await outbox.enqueue(email(6), now);
    await outbox.enqueue(email(7), now);
    const claimed = await outbox.claimDue(now, 10, 30_000);
    expect(claimed).toHaveLength(2);
    // A live worker renews its lease: 29 s later nobody else may take the messages.
    now = new Date(now.getTime() + 20_000);
    expect(await outbox.extendLeases(claimed, new Date(now.getTime() + 30_000))).toBe(2);
    now = new Date(now.getTime() + 29_000);
    expect(await outbox.claimDue(now, 10, 30_000)).toHaveLength(0);
    // The embedded database at start: whoever held a lease is gone (the data-dir lock says so).
    expect(await outbox.releaseAllLeases()).toBe(2);
    const again = await outbox.claimDue(now, 10, 30_000);
    expect(again.map((row) => row.attempts)).toEqual([2, 2]);
    // The old claims are void: their late renewals hold nothing.
    expect(await outbox.extendLeases(claimed, new Date(now.getTime() + 60_000))).toBe(0);
  });

  it('on stop, finishes the message being sent and gives back the rest of its batch', async () => {
    const outbox = createOutboxRepository(handle.db);
    for (let n = 0; n < 5; n++) await outbox.enqueue(email(200 + n, { kind: 'stop' }), now);
    let stopping = false;
    const sent: string[] = [];
    const transport: MailTransport = {
      name: 'slow',
      async send(mail) {
        stopping = true; // The stop arrives while the first message is on the wire.
        await new Promise((resolve) => setTimeout(resolve, 20));
        sent.push(mail.to);
      },
      close: () => undefined,
    };
    const delivery = createOutboxDelivery({ db: handle.db, transport, from: FROM, clock, logger });
    expect(await delivery.deliverDue(() => stopping)).toEqual({
      sent: 1,
      retrying: 0,
      failed: 0,
    });
    expect(sent).toEqual(['person200@example.com']);
    const rows = await handle.db.select().from(emailOutbox);
    const pending = rows.filter((row) => row.status === 'pending');
    expect(pending).toHaveLength(4);
    // Released, not counted as an attempt: due again at once.
    expect(pending.every((row) => row.attempts === 0 && row.leasedUntil === null)).toBe(true);
    expect(await outbox.claimDue(now, 10, 30_000)).toHaveLength(4);
  });

  it('delivers every message exactly once when two workers race', async () => {
    const outbox = createOutboxRepository(handle.db);
    const count = 40;
    for (let n = 0; n < count; n++) await outbox.enqueue(email(100 + n, { kind: 'race' }), now);
    const other = target.name === 'postgres' ? await secondInstance(handle) : handle;
    const sent: string[] = [];
    const recording = (name: string): MailTransport => ({
      name,
      async send(mail) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        sent.push(mail.messageId);
      },
      close: () => undefined,
    });
    const workers = [
      createOutboxDelivery({
        db: handle.db,
        transport: recording('a'),
        from: FROM,
        clock,
        logger,
        batchSize: 3,
      }),
      createOutboxDelivery({
        db: other.db,
        transport: recording('b'),
        from: FROM,
        clock,
        logger,
        batchSize: 3,
      }),
    ];
    try {
      const reports = await Promise.all(workers.map((worker) => worker.deliverDue()));
      expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(count);
      if (target.name === 'postgres') expect(reports.every((report) => report.sent > 0)).toBe(true);
      expect(sent).toHaveLength(count);
      expect(new Set(sent).size).toBe(count);
      const rows = await handle.db.select().from(emailOutbox);
      expect(rows.filter((row) => row.status === 'sent')).toHaveLength(count);
      expect(rows.every((row) => row.attempts === 1)).toBe(true);
    } finally {
      if (other !== handle) await other.close();
    }
  });

  it('keeps what it sent while the database refuses the record, records it before claiming again', async () => {
    const outbox = createOutboxRepository(handle.db);
    const first = await outbox.enqueue(email(300, { kind: 'outage' }), now);
    const sent: string[] = [];
    const transport: MailTransport = {
      name: 'recording',
      async send(mail) {
        sent.push(mail.messageId);
      },
      close: () => undefined,
    };
    // A lease that has run out by the next round: a claim then would offer the message again.
    const delivery = createOutboxDelivery({
      db: handle.db,
      transport,
      from: FROM,
      clock,
      logger,
      leaseMs: 1_000,
    });
    // The database refuses to record a delivery, as it would while it is down.
    await handle.db.execute(
      sql.raw(`create function refuse_sent() returns trigger language plpgsql as $$
        begin
          if new.status = 'sent' then raise exception 'database away'; end if;
          return new;
        end $$`),
    );
    await handle.db.execute(
      sql`create trigger refuse_sent before update on email_outbox for each row execute function refuse_sent()`,
    );
    try {
      expect(await delivery.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(delivery.unrecordedCount()).toBe(1);
      // A second message queued meanwhile waits: nothing is claimed while a record is owed.
      await outbox.enqueue(email(301, { kind: 'outage' }), now);
      now = new Date(now.getTime() + 2_000);
      await expect(delivery.deliverDue()).rejects.toThrow(/update "email_outbox"/);
      expect(sent).toHaveLength(1);
      expect((await outbox.findById(first.id))?.status).toBe('pending');
    } finally {
      await handle.db.execute(sql`drop trigger refuse_sent on email_outbox`);
      await handle.db.execute(sql`drop function refuse_sent()`);
    }
    // The database is back: the kept record first, then the next message; the first is not resent.
    expect(await delivery.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(delivery.unrecordedCount()).toBe(0);
    expect(sent).toHaveLength(2);
    expect(new Set(sent).size).toBe(2);
    expect(await outbox.findById(first.id)).toMatchObject({ status: 'sent', attempts: 1 });
    now = new Date(now.getTime() + 60_000);
    expect(await delivery.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sent).toHaveLength(2);
  });

  it('after an outage longer than the lease, another worker leaves a message in doubt to its sender', async () => {
    const outbox = createOutboxRepository(handle.db);
    const first = await outbox.enqueue(email(400, { kind: 'in-doubt' }), now);
    const sent: string[] = [];
    // The database goes away while the message is on the wire: every write is refused.
    let cutDuringSend = true;
    const recording: MailTransport = {
      name: 'recording',
      async send(mail) {
        if (cutDuringSend) {
          cutDuringSend = false;
          await handle.db.execute(
            sql.raw(`create function refuse_all() returns trigger language plpgsql as $$
              begin raise exception 'database away'; end $$`),
          );
          await handle.db.execute(
            sql`create trigger refuse_all before update on email_outbox for each statement execute function refuse_all()`,
          );
        }
        sent.push(mail.messageId);
      },
      close: () => undefined,
    };
    const other = target.name === 'postgres' ? await secondInstance(handle) : handle;
    const a = createOutboxDelivery({
      db: handle.db,
      transport: recording,
      from: FROM,
      clock,
      logger,
    });
    const b = createOutboxDelivery({
      db: other.db,
      transport: recording,
      from: FROM,
      clock,
      logger,
    });
    try {
      // a hands the message to the relay and cannot say so; b is cut off too.
      expect(await a.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(a.unrecordedCount()).toBe(1);
      await expect(b.deliverDue()).rejects.toThrow(/update "email_outbox"/);
    } finally {
      await handle.db.execute(sql`drop trigger if exists refuse_all on email_outbox`);
      await handle.db.execute(sql`drop function if exists refuse_all()`);
    }
    // 20 s later (the 15 s lease has run out) b reaches the database again first: the lapsed
    // claim is in doubt, and b does not take it over yet.
    now = new Date(now.getTime() + 20_000);
    expect(await b.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    now = new Date(now.getTime() + 5_000);
    expect(await b.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    // a is back within b's wait and records what it sent; b never sends it.
    expect(await a.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await outbox.findById(first.id)).toMatchObject({ status: 'sent', attempts: 1 });
    now = new Date(now.getTime() + 60_000);
    expect(await b.deliverDue()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sent).toEqual([first.messageId]);

    // A claim whose worker died is taken over once b has reached the database for 10 s.
    const second = await outbox.enqueue(email(401, { kind: 'in-doubt' }), now);
    expect(await outbox.claimDue(now, 10, 15_000)).toHaveLength(1);
    now = new Date(now.getTime() + 15_000);
    expect(await b.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(sent).toEqual([first.messageId, second.messageId]);
    if (other !== handle) await other.close();
  });

  it('gives every claim its own token: a claim voided by a requeue records nothing', async () => {
    const outbox = createOutboxRepository(handle.db);
    const row = await outbox.enqueue(email(402), now);
    const [old] = await outbox.claimDue(now, 10, 15_000);
    expect(old?.claimToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(await outbox.requeue(row.id, now)).toBe(true);
    const [fresh] = await outbox.claimDue(now, 10, 15_000);
    // Same attempt count as the voided claim, another token.
    expect(fresh?.attempts).toBe(old?.attempts);
    expect(fresh?.claimToken).not.toBe(old?.claimToken);
    if (!old || !fresh) throw new Error('no claim');
    expect(await outbox.markSent(old, now)).toBe(false);
    expect(await outbox.findById(row.id)).toMatchObject({
      status: 'pending',
      claimToken: fresh.claimToken,
    });
    expect(await outbox.markSent(fresh, now)).toBe(true);
    // Written again (the first reply was lost with the connection): still this claim's record.
    expect(await outbox.markSent(fresh, now)).toBe(true);
    expect(await outbox.markSent(old, now)).toBe(false);
    expect(await outbox.findById(row.id)).toMatchObject({ status: 'sent', sentAt: now });
  });

  it('writes .eml files under $DATA_DIR/mail when no SMTP server is configured', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-mail-'));
    try {
      const outbox = createOutboxRepository(handle.db);
      const row = await outbox.enqueue(email(6), now);
      const lines: string[] = [];
      const recordingLogger = pino(
        { level: 'info' },
        { write: (line: string) => lines.push(line) },
      );
      const transport = createFileTransport(dataDir, recordingLogger);
      const delivery = createOutboxDelivery({
        db: handle.db,
        transport,
        from: FROM,
        clock,
        logger,
      });
      expect(await delivery.deliverDue()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      const files = await readdir(path.join(dataDir, 'mail'));
      expect(files).toEqual([
        expect.stringMatching(new RegExp(`test-message-${row.messageId}\\.eml$`)),
      ]);
      const raw = await readFile(path.join(dataDir, 'mail', files[0] ?? ''), 'utf8');
      expect(raw).toContain('To: person6@example.com');
      expect(raw).toContain(`Message-ID: <${row.messageId}@orgsmith.io>`);
      const logged = lines.map((line) => z.record(z.string(), z.unknown()).parse(JSON.parse(line)));
      expect(logged).toContainEqual(
        expect.objectContaining({ msg: 'e-mail written to file', to: 'p***@example.com' }),
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

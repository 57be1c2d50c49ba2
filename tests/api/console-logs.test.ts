import Stripe from 'stripe';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEventDetails, auditEvents, emailOutbox } from '#server/platform/db/schema.ts';
import { createOutboxDelivery } from '#server/platform/email/deliver-outbox.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { createSmtpTransport } from '#server/platform/email/smtp-transport.ts';
import { createLogger } from '#server/platform/logger.ts';
import { databaseTargets } from '../support/databases.ts';
import { signedInOperator, type ConsoleTestOperator } from '../support/console-operator.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startStripeTestApp, type StripeTestApp } from '../support/stripe-test-app.ts';
import { createCheckout, pro10YearlyEur } from './checkout-support.ts';

const NAME = 'console_logs';
const start = new Date('2026-01-15T10:00:00Z');

const eventPage = z.object({
  events: z.array(
    z.object({
      eventId: z.string(),
      type: z.string(),
      status: z.string(),
      duplicates: z.number(),
      error: z.string().nullable(),
      seq: z.number(),
    }),
  ),
  next: z.number().nullable(),
});
const emailEntry = z.object({
  id: z.number(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  resentFrom: z.number().nullable(),
  resendableUntil: z.string().nullable(),
});
const emailPage = z.object({ emails: z.array(emailEntry), next: z.number().nullable() });

describe.each(databaseTargets)('the console logs on $name (decision 235)', (target) => {
  let stripe: StripeTestApp;
  let sink: SmtpSink;
  let finance: ConsoleTestOperator;
  let viewer: ConsoleTestOperator;
  const signer = new Stripe(`sk_test_${NAME}`);

  beforeAll(async () => {
    stripe = await startStripeTestApp(target, { now: start, name: NAME });
    sink = await startSmtpSink();
    finance = await signedInOperator(stripe.t, 'finance');
    viewer = await signedInOperator(stripe.t, 'viewer');
  });
  afterAll(async () => {
    await sink.close();
    await stripe.close();
  });

  const db = () => stripe.t.deps.database.db;
  const delivery = (maxAttempts = 20) =>
    createOutboxDelivery({
      db: db(),
      transport: createSmtpTransport(sink.url),
      from: 'Orgsmith <hello@orgsmith.test>',
      clock: stripe.t.deps.clock,
      logger: createLogger('silent'),
      secretKey: stripe.t.deps.secretKey,
      maxAttempts,
    });

  let counter = 0;
  function event(type: string, object: Record<string, unknown>) {
    counter++;
    return {
      id: `evt_logs_${counter}`,
      object: 'event',
      type,
      created: Math.floor(start.getTime() / 1000),
      data: { object },
    };
  }
  async function deliver(body: object): Promise<number> {
    const payload = JSON.stringify(body);
    const header = signer.webhooks.generateTestHeaderString({
      payload,
      secret: `whsec_${NAME}_secret`,
    });
    const response = await stripe.t.app.request('/account/v1/webhooks/stripe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
      body: payload,
    });
    return response.status;
  }
  async function events(query: string) {
    const response = await viewer.request(`events${query}`);
    expect(response.status).toBe(200);
    return eventPage.parse(await response.json());
  }
  async function emails(query: string) {
    const response = await viewer.request(`emails${query}`);
    expect(response.status).toBe(200);
    return emailPage.parse(await response.json());
  }
  const auditOf = (id: number) =>
    db()
      .select()
      .from(auditEvents)
      .innerJoin(auditEventDetails, eq(auditEventDetails.eventId, auditEvents.id))
      .where(and(eq(auditEvents.targetType, 'email'), eq(auditEvents.targetId, String(id))));

  it('records each event with what it did: applied, duplicate, ignored and failed with its error', async () => {
    const { sessionId } = await createCheckout(stripe.t, pro10YearlyEur);
    const subscription = stripe.fake.completeCheckoutSession(sessionId, {
      email: 'logs.buyer@acme.test',
    });
    const created = event('customer.subscription.created', {
      object: 'subscription',
      id: subscription.id,
    });
    expect(await deliver(created)).toBe(200);
    expect(await deliver(created)).toBe(200);
    const noSubscription = event('customer.created', { object: 'customer', id: 'cus_other' });
    expect(await deliver(noSubscription)).toBe(200);

    // The provider answers nonsense: the sync throws, Stripe is told to retry, the log keeps why.
    stripe.fake.updateSubscription(subscription.id, { status: 'weird' });
    const updated = event('customer.subscription.updated', {
      object: 'subscription',
      id: subscription.id,
    });
    expect(await deliver(updated)).toBe(500);

    const all = await events('');
    const byId = new Map(all.events.map((entry) => [entry.eventId, entry]));
    expect(byId.get(created.id)).toMatchObject({ status: 'applied', duplicates: 1 });
    expect(byId.get(noSubscription.id)).toMatchObject({ status: 'ignored', duplicates: 0 });
    expect(byId.get(updated.id)).toMatchObject({ status: 'failed', duplicates: 0 });
    expect(byId.get(updated.id)?.error).toContain('Unknown subscription status weird');
    // Newest first.
    expect(all.events[0]?.eventId).toBe(updated.id);

    expect((await events('?status=duplicate')).events.map((e) => e.eventId)).toEqual([created.id]);
    expect((await events('?status=failed')).events.map((e) => e.eventId)).toEqual([updated.id]);
    expect((await events('?type=customer.created')).events.map((e) => e.eventId)).toEqual([
      noSubscription.id,
    ]);

    // Stripe's retry, once the subscription reads well again, applies it: not a duplicate.
    stripe.fake.updateSubscription(subscription.id, { status: 'active' });
    expect(await deliver(updated)).toBe(200);
    const retried = (await events('?type=customer.subscription.updated')).events[0];
    expect(retried).toMatchObject({ eventId: updated.id, status: 'applied', error: null });
    expect((await events('?status=failed')).events).toEqual([]);

    // Keyset pages: one at a time, each page's `next` the cursor of the following one.
    const first = await events('?limit=1');
    expect(first.events).toHaveLength(1);
    expect(first.next).toBe(first.events[0]?.seq);
    const second = await events(`?limit=1&before=${first.next}`);
    expect(second.events[0]?.seq).toBeLessThan(first.events[0]?.seq ?? 0);
  });

  it('lists e-mails sent and failed; retry sends a failed one, resend a delivered one; both audited', async () => {
    const outbox = createOutboxRepository(db());
    const now = stripe.t.deps.clock();
    // The licence key e-mail of the purchase above goes out.
    expect((await delivery().deliverDue()).sent).toBeGreaterThan(0);
    const sent = (
      await emails(`?to=${encodeURIComponent('Logs.Buyer@ACME.test')}&status=sent`)
    ).emails.find((entry) => entry.kind === 'licence-key');
    const keyMail = await sink.waitForMail({ to: 'logs.buyer@acme.test', subject: sent?.subject });
    expect(sent).toMatchObject({
      to: 'logs.buyer@acme.test',
      subject: keyMail.subject,
      status: 'sent',
      attempts: 1,
    });
    expect(sent?.resendableUntil).toBe(new Date(now.getTime() + 14 * 86_400_000).toISOString());
    const sentId = sent?.id ?? 0;
    // The row keeps no readable body: only the sealed copy.
    const [stored] = await db().select().from(emailOutbox).where(eq(emailOutbox.id, sentId));
    expect(stored?.textBody).toBeNull();
    expect(stored?.sealedContent).not.toContain(keyMail.text.slice(0, 20));

    // A message the relay cannot take: the sink is down, one attempt allowed.
    const failing = await outbox.enqueue(
      {
        kind: 'test-note',
        to: 'help.me@acme.test',
        subject: 'A note',
        text: 'Hello',
        html: '<p>Hello</p>',
      },
      now,
    );
    await sink.stop();
    expect(await delivery(1).deliverDue()).toMatchObject({ failed: 1 });
    await sink.start();
    const [failed] = (await emails('?status=failed')).emails;
    expect(failed).toMatchObject({ id: failing.id, status: 'failed', attempts: 1 });
    expect(failed?.lastError).toBeTruthy();

    // Not this action for this state; unknown id; no reason; a viewer may not.
    const reason = { reason: 'customer asked on ticket 4711' };
    expect((await finance.request(`emails/${failing.id}/resend`, { body: reason })).status).toBe(
      409,
    );
    expect((await finance.request(`emails/${sentId}/retry`, { body: reason })).status).toBe(409);
    expect((await finance.request('emails/999999/retry', { body: reason })).status).toBe(404);
    expect((await finance.request('emails/abc/resend', { body: reason })).status).toBe(404);
    expect((await finance.request(`emails/${failing.id}/retry`, { body: {} })).status).toBe(400);
    const denied = await viewer.request(`emails/${failing.id}/retry`, { body: reason });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ permission: 'email.resend' });
    expect(await auditOf(failing.id)).toEqual([]);

    // Retry: queued now, and really sent.
    const retried = await finance.request(`emails/${failing.id}/retry`, { body: reason });
    expect(retried.status).toBe(200);
    expect(emailEntry.parse((await retried.json()).email)).toMatchObject({
      status: 'pending',
      attempts: 0,
    });
    expect(await delivery().deliverDue()).toMatchObject({ sent: 1 });
    expect((await sink.waitForMail({ to: 'help.me@acme.test' })).text.trim()).toBe('Hello');

    // Resend: a new message with the same content and a new Message-ID, really sent.
    const resent = await finance.request(`emails/${sentId}/resend`, { body: reason });
    expect(resent.status).toBe(200);
    const copy = emailEntry.parse((await resent.json()).email);
    expect(copy).toMatchObject({
      status: 'pending',
      resentFrom: sentId,
      to: 'logs.buyer@acme.test',
    });
    expect(await delivery().deliverDue()).toMatchObject({ sent: 1 });
    const copies = sink.mailsFor({ to: 'logs.buyer@acme.test', subject: keyMail.subject });
    expect(copies).toHaveLength(2);
    expect(copies[1]?.text).toBe(keyMail.text);
    expect(copies[1]?.messageId).not.toBe(keyMail.messageId);

    // Audited as the operator with the reason; the address only in the details.
    for (const [id, action] of [
      [failing.id, 'email.retried'],
      [sentId, 'email.resent'],
    ] as const) {
      const rows = await auditOf(id);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.audit_events).toMatchObject({ action, actor: `operator:${finance.id}` });
      expect(JSON.stringify(rows[0]?.audit_events)).not.toContain('@');
      expect(rows[0]?.audit_event_details).toMatchObject({
        reason: reason.reason,
        subjectEmail: id === sentId ? 'logs.buyer@acme.test' : 'help.me@acme.test',
      });
    }
  });

  it('bounds resends: three to one address a day, then 429 and nothing queued', async () => {
    const sent = (await emails('?to=logs.buyer%40acme.test&status=sent')).emails.find(
      (entry) => entry.kind === 'licence-key' && entry.resentFrom === null,
    );
    const id = sent?.id ?? 0;
    const reason = { reason: 'customer asked again' };
    // One resend was made in the test before.
    for (let i = 0; i < 2; i++) {
      expect((await finance.request(`emails/${id}/resend`, { body: reason })).status).toBe(200);
    }
    const before = await db()
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(inArray(emailOutbox.status, ['pending']));
    const refused = await finance.request(`emails/${id}/resend`, { body: reason });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ Error: 'ResendLimit' });
    const after = await db()
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(inArray(emailOutbox.status, ['pending']));
    expect(after).toEqual(before);
    // A day later the address may be sent again (a new sign-in: the clock ended the session).
    try {
      stripe.t.setNow(new Date(start.getTime() + 86_400_000 + 1000));
      const nextDay = await signedInOperator(stripe.t, 'support');
      expect((await nextDay.request(`emails/${id}/resend`, { body: reason })).status).toBe(200);
      // After the resend window, the content is gone: 409.
      stripe.t.setNow(new Date(start.getTime() + 15 * 86_400_000));
      const later = await signedInOperator(stripe.t, 'owner');
      const late = await later.request(`emails/${id}/resend`, { body: reason });
      expect(late.status).toBe(409);
      expect(await late.json()).toMatchObject({ Error: 'ContentNotKept' });
    } finally {
      stripe.t.setNow(start);
    }
  });

  it('answers 400 to a bad filter, changing nothing, and 401 without a session', async () => {
    // A new session: the test before moved the clock past the others' idle limit.
    const reader = await signedInOperator(stripe.t, 'viewer');
    for (const query of [
      'events?status=bogus',
      'events?before=abc',
      'events?before=0',
      'events?limit=1000',
      'events?type=NOT%20A%20TYPE',
      'events?color=red',
      'emails?status=delivered',
      'emails?to=not-an-address',
      'emails?limit=0',
      'emails?before=-3',
    ]) {
      const response = await reader.request(query);
      expect(response.status, query).toBe(400);
      expect(await response.json(), query).toMatchObject({ Error: 'InvalidRequest' });
    }
    // Without a session: 401.
    expect((await reader.request('emails', { session: null })).status).toBe(401);
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCheckoutStatusReader,
  type CheckoutStatusReader,
} from '#server/billing/checkout/read-checkout-status.ts';
import type { PaymentProvider } from '#server/billing/subscriptions/payment-provider.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createCheckout, payLocally, pro10YearlyEur, successCard } from './checkout-support.ts';

/** A well-formed local session id that was never issued. */
const unknownLocalId = () => `lcs_${randomBytes(24).toString('base64url')}`;
const perClient = rateLimitRules.checkoutStatusPerIp.limit;
const overall = rateLimitRules.checkoutStatusOverall.limit;

describe.each(databaseTargets)('the checkout-success reader on $name (decision 125)', (target) => {
  let t: TestApp;
  let reader: CheckoutStatusReader;
  const sessionReads: string[] = [];
  let clients = 0;
  const freshClient = () => `198.18.${Math.floor(++clients / 250)}.${(clients % 250) + 1}`;

  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-01-15T10:00:00Z') });
    // The real local provider, with its session reads counted.
    const real = t.deps.payments;
    const payments: PaymentProvider = {
      ...real,
      retrieveCheckoutSession: (sessionId) => {
        sessionReads.push(sessionId);
        return real.retrieveCheckoutSession(sessionId);
      },
    };
    reader = createCheckoutStatusReader({
      ...syncDepsOf(t.deps),
      payments,
      rateLimiter: t.deps.rateLimiter,
    });
  });
  afterAll(() => t.close());

  it('answers malformed ids without a lookup or a count', async () => {
    const client = freshClient();
    for (let i = 0; i < perClient * 2; i++) {
      const answer = await reader.read(i % 2 ? null : `lcs_${'x'.repeat(i % 32)}`, client);
      expect(answer).toEqual({ status: { state: 'unknown' } });
    }
    expect(sessionReads).toHaveLength(0);
    expect(await reader.read(unknownLocalId(), client)).toEqual({ status: { state: 'unknown' } });
  });

  it('asks about a paid session once, then reads its licence from the database', async () => {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    expect(await reader.read(sessionId, freshClient())).toEqual({ status: { state: 'open' } });
    expect(
      (await payLocally(t, sessionId, { email: 'reader@acme.test', card: successCard })).status,
    ).toBe(303);
    const before = sessionReads.length;
    for (let i = 0; i < 10; i++) {
      expect(await reader.read(sessionId, freshClient())).toEqual({
        status: {
          state: 'issued',
          edition: 'Pro',
          quantity: 10,
          email: 'reader@acme.test',
          converted: false,
        },
      });
    }
    expect(sessionReads.length - before).toBe(1);
  });

  it('limits lookups per client, and a refused client spends nothing of the overall limit', async () => {
    const start = t.deps.clock();
    const greedy = freshClient();
    const remembered = unknownLocalId();
    expect(await reader.read(remembered, greedy)).toEqual({ status: { state: 'unknown' } });
    for (let i = 1; i < perClient; i++) await reader.read(unknownLocalId(), greedy);
    const before = sessionReads.length;
    for (let i = 0; i < 50; i++) {
      const refused = await reader.read(unknownLocalId(), greedy);
      expect(refused.status).toEqual({ state: 'unknown' });
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(600);
    }
    expect(sessionReads).toHaveLength(before);
    // What was already answered for good is still shown to the refused client.
    expect(await reader.read(remembered, greedy)).toEqual({ status: { state: 'unknown' } });

    // The overall limit counts only admitted lookups: the greedy client's refusals are not in it.
    const usedSoFar = sessionReads.length;
    let admitted = 0;
    while (usedSoFar + admitted < overall) {
      const client = freshClient();
      for (let i = 0; i < perClient && usedSoFar + admitted < overall; i++, admitted++) {
        expect((await reader.read(unknownLocalId(), client)).retryAfterSeconds).toBeUndefined();
      }
    }
    const crowded = await reader.read(unknownLocalId(), freshClient());
    expect(crowded.retryAfterSeconds).toBeGreaterThan(0);
    expect(crowded.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(sessionReads).toHaveLength(overall);

    // Both windows end: the greedy client may look up again.
    t.setNow(new Date(start.getTime() + 600_000));
    try {
      expect((await reader.read(unknownLocalId(), greedy)).retryAfterSeconds).toBeUndefined();
    } finally {
      t.setNow(start);
    }
  });
});

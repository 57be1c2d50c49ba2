import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { licences, subscriptions } from '#server/platform/db/schema.ts';
import { createSubscriptionRepository, type SubscriptionRow } from './subscription-repository.ts';

describe.each(databaseTargets)('overdue invoices, paged, on $name (decision 175)', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('reads every overdue invoice page by page, oldest first, and nothing not yet due', async () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const day = (n: number) => new Date(now.getTime() + n * 86_400_000);
    const row = (id: string, dueAt: Date | null, collection: 'invoice' | 'card' = 'invoice') => ({
      provider: 'local' as const,
      subscriptionId: id,
      licenceId: licenceIds.get(id) ?? null,
      customerId: `cus_${id}`,
      status: 'active',
      edition: 'Pro' as const,
      quantity: 4,
      billingPeriod: 'yearly' as const,
      currency: 'USD' as const,
      currentPeriodEnd: day(300),
      cancelAtPeriodEnd: false,
      collection,
      openInvoiceId: dueAt ? `in_${id}` : null,
      openInvoiceDueAt: dueAt,
      snapshotReadAt: now,
    });
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'later', 'card'].map((n) => `sub_${n}`);
    const licenceIds = new Map(ids.map((id) => [id, randomUUID()]));
    await handle.db.insert(licences).values(
      ids.map((id) => ({
        id: licenceIds.get(id)!,
        type: 'Paid' as const,
        edition: 'Pro' as const,
        email: `${id}@example.com`,
        emailNormalized: `${id}@example.com`,
        keyHash: `hash-${id}`,
        keyHint: 'ABCD',
        productId: 'orgsmith-cli',
      })),
    );
    // Seven overdue, two of them due at the same moment; one due tomorrow; one by card.
    await handle.db
      .insert(subscriptions)
      .values([
        row('sub_g', day(-1)),
        row('sub_a', day(-30)),
        row('sub_c', day(-10)),
        row('sub_b', day(-10)),
        row('sub_d', day(-7)),
        row('sub_e', day(-3)),
        row('sub_f', day(-2)),
        row('sub_later', day(1)),
        row('sub_card', day(-5), 'card'),
      ]);
    const repository = createSubscriptionRepository(handle.db);
    const seen: string[] = [];
    let after: { dueAt: Date; provider: string; subscriptionId: string } | undefined;
    let pages = 0;
    for (;;) {
      const page: SubscriptionRow[] = await repository.overdueInvoices(now, 2, after);
      pages++;
      seen.push(...page.map((r) => r.subscriptionId));
      const last = page.at(-1);
      if (page.length < 2 || !last?.openInvoiceDueAt) break;
      after = {
        dueAt: last.openInvoiceDueAt,
        provider: last.provider,
        subscriptionId: last.subscriptionId,
      };
    }
    expect(seen).toEqual(['sub_a', 'sub_b', 'sub_c', 'sub_d', 'sub_e', 'sub_f', 'sub_g']);
    expect(pages).toBe(4);
  });
});

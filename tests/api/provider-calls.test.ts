import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProviderCallRepository } from '#server/billing/subscriptions/provider-call-repository.ts';
import {
  PROVIDER_CALL_MAX_ATTEMPTS,
  PROVIDER_CONCURRENCY,
  providerRetryDelayMs,
  runProviderCalls,
} from '#server/billing/subscriptions/provider-calls.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import { providerCalls } from '#server/platform/db/schema.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const start = new Date('2026-03-01T10:00:00Z');

/**
 * The lifecycle's provider calls as rows (decision 246): queued once per kind and subscription,
 * made by one worker at a time, retried with backoff and given up after the last attempt.
 */
describe.each(databaseTargets)('provider calls on $name', (target) => {
  let t: TestApp;
  const calls = () => createProviderCallRepository(t.deps.database.db);
  beforeAll(async () => {
    t = await createTestApp(target, { now: start });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    t.setNow(start);
    await t.deps.database.db.delete(providerCalls);
  });

  it('backs off 1, 2, 4 … minutes, at most six hours', () => {
    expect([1, 2, 3, 4].map(providerRetryDelayMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(providerRetryDelayMs(20)).toBe(6 * 60 * 60_000);
  });

  it('queues one call per kind and subscription while it waits', async () => {
    await calls().enqueue(
      [
        { kind: 'resync', subscriptionId: 'sub_a' },
        { kind: 'resync', subscriptionId: 'sub_a' },
        { kind: 'cancel', subscriptionId: 'sub_a' },
      ],
      start,
    );
    await calls().enqueue([{ kind: 'resync', subscriptionId: 'sub_a' }], start);
    expect((await calls().pending()).map((call) => `${call.kind} ${call.subscriptionId}`)).toEqual([
      'resync sub_a',
      'cancel sub_a',
    ]);
  });

  it('gives a call up after its last attempt, with its error; a later sweep may queue it again', async () => {
    // The provider does not know this subscription: every re-read fails.
    await calls().enqueue([{ kind: 'resync', subscriptionId: 'sub_nobody_knows' }], start);
    let report = await runProviderCalls(syncDepsOf(t.deps));
    expect(report).toEqual({ cancelled: 0, resynced: 0, failed: 1, gaveUp: 0 });
    // Not due again before its backoff.
    expect(await runProviderCalls(syncDepsOf(t.deps))).toMatchObject({ failed: 0 });
    for (let attempt = 2; attempt <= PROVIDER_CALL_MAX_ATTEMPTS; attempt++) {
      t.setNow(new Date(t.deps.clock().getTime() + providerRetryDelayMs(attempt - 1)));
      report = await runProviderCalls(syncDepsOf(t.deps));
      expect(report.failed).toBe(1);
    }
    expect(report.gaveUp).toBe(1);
    expect(await calls().pending()).toEqual([]);
    const [failed] = await calls().failed();
    expect(failed).toMatchObject({
      kind: 'resync',
      subscriptionId: 'sub_nobody_knows',
      status: 'failed',
      attempts: PROVIDER_CALL_MAX_ATTEMPTS,
      leasedUntil: null,
    });
    expect(failed?.lastError).toBeTruthy();
    // `/metrics` says so (orgsmith_provider_calls{status="failed"}).
    expect(await calls().counts()).toEqual({ pending: 0, failed: 1 });
    // The operator sees it, and may try it again: refused while another of its kind waits.
    const listed = await runAdminOn(t, 'provider-calls', 'list', '--failed');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/resync\s+sub_nobody_knows\s+failed\s+10\b/);
    const id = String(failed?.id ?? 0);
    expect(await runAdminOn(t, 'provider-calls', 'retry', 'x')).toMatchObject({ code: 2 });
    await calls().enqueue([{ kind: 'resync', subscriptionId: 'sub_nobody_knows' }], start);
    expect(await calls().pending()).toHaveLength(1);
    const refused = await runAdminOn(t, 'provider-calls', 'retry', id);
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.err).toContain('waits already; nothing changed');
    await t.deps.database.db.delete(providerCalls).where(eq(providerCalls.status, 'pending'));
    expect(await runAdminOn(t, 'provider-calls', 'retry', id)).toMatchObject({ code: 0 });
    // The retry is audited as the operator's (decision 224).
    const [audited] = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'provider_call',
      id,
    );
    expect(audited).toMatchObject({ action: 'provider_call.retried' });
    expect(audited?.actor).toMatch(/^cli:/);
    expect(await calls().pending()).toEqual([
      expect.objectContaining({ id: failed?.id, status: 'pending', attempts: 0 }),
    ]);
    expect((await runAdminOn(t, 'provider-calls', 'retry', id)).err).toContain(
      'is not one that was given up',
    );
    expect((await runAdminOn(t, 'provider-calls', 'list')).out).toContain('sub_nobody_knows');
  });

  it('makes each call once when two workers run at once, never more than 8 at a time each', async () => {
    const subscriptions = Array.from({ length: 40 }, (_, i) => `sub_${i}`);
    await calls().enqueue(
      subscriptions.map((subscriptionId) => ({ kind: 'resync' as const, subscriptionId })),
      start,
    );
    const made = new Map<string, number>();
    let running = 0;
    let most = 0;
    const slow = {
      ...t.deps.payments,
      retrieveSubscription: async (id: string) => {
        made.set(id, (made.get(id) ?? 0) + 1);
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        // Unknown to the provider: the call fails and waits for its retry.
        return t.deps.payments.retrieveSubscription(id);
      },
    };
    const worker = () => runProviderCalls({ ...syncDepsOf(t.deps), payments: slow });
    const [first, second] = await Promise.all([worker(), worker()]);
    expect((first?.failed ?? 0) + (second?.failed ?? 0)).toBe(40);
    expect([...made.values()].every((times) => times === 1)).toBe(true);
    expect(made.size).toBe(40);
    expect(most).toBeLessThanOrEqual(2 * PROVIDER_CONCURRENCY);
    expect((await calls().pending()).every((call) => call.attempts === 1)).toBe(true);
  });

  it('counts a cancellation the provider refuses as made when the subscription reads as cancelled', async () => {
    await calls().enqueue([{ kind: 'cancel', subscriptionId: 'sub_ended' }], start);
    const ended = {
      ...t.deps.payments,
      cancelSubscription: () => Promise.reject(new Error('already cancelled')),
      retrieveSubscription: async (id: string) => {
        if (id !== 'sub_ended') return t.deps.payments.retrieveSubscription(id);
        return { status: 'canceled' } as Awaited<
          ReturnType<typeof t.deps.payments.retrieveSubscription>
        >;
      },
    };
    // The re-read that follows finds nothing to mirror for a subscription we never had: the
    // call still fails, but on the re-read, not the refused cancellation.
    const report = await runProviderCalls({ ...syncDepsOf(t.deps), payments: ended });
    expect(report.failed).toBe(1);
    const [call] = await calls().pending();
    expect(call?.lastError).not.toBe('already cancelled');
  });
});

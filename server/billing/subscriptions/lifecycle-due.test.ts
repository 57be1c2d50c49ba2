import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { licences } from '#server/platform/db/schema.ts';
import { createLifecycleRepository, lifecycleOf } from './lifecycle-repository.ts';
import { sweepStep } from './lifecycle-rules.ts';

const DAY = 24 * 60 * 60 * 1000;
const t0 = new Date('2026-01-31T10:00:00Z'); // a month end: month arithmetic at its edge

/** Every combination of the columns sweepStep reads, at a few distances from t0. */
function states() {
  const offsets = [null, -400, -70, -62, -58, -31, -1, 0, 1, 30, 59, 61, 90].map((days) =>
    days === null ? null : new Date(t0.getTime() + days * DAY),
  );
  const rows = [];
  for (const type of ['Trial', 'Free', 'Paid'] as const) {
    for (const status of ['Active', 'Deactivated', 'Cancelled'] as const) {
      for (const subscriptionStatus of [
        null,
        'active',
        'past_due',
        'canceled',
        'incomplete_expired',
      ]) {
        for (const expiresAt of offsets) {
          for (const deactivatedAt of [null, offsets[3]!, offsets[9]!]) {
            for (const deletionScheduledAt of [null, offsets[6]!, offsets[11]!]) {
              rows.push({
                type,
                status,
                subscriptionStatus,
                expiresAt,
                deactivatedAt,
                deletionScheduledAt,
              });
            }
          }
        }
      }
    }
  }
  return rows;
}

describe.each(databaseTargets)(
  'the lifecycle sweep’s due time on $name (decision 175)',
  (target) => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await target.open();
    });
    afterAll(async () => {
      await handle.close();
    });

    it('is never later than the first moment sweepStep has work, for every state', async () => {
      const all = states();
      for (let i = 0; i < all.length; i += 500) {
        await handle.db.insert(licences).values(
          all.slice(i, i + 500).map((state, n) => ({
            id: randomUUID(),
            edition: 'Pro' as const,
            email: `due-${i + n}@example.com`,
            emailNormalized: `due-${i + n}@example.com`,
            keyHash: `hash-${i + n}`,
            keyHint: 'ABCD',
            productId: 'orgsmith-cli',
            ...state,
          })),
        );
      }
      const rows = await handle.db.select().from(licences);
      expect(rows.length).toBe(all.length);
      const hours = Array.from(
        { length: (500 * 24) / 6 },
        (_, k) => new Date(t0.getTime() - 400 * DAY + k * 6 * 3_600_000),
      );
      let withWork = 0;
      for (const row of rows) {
        for (const now of hours) {
          if (sweepStep(lifecycleOf(row), now).action === 'none') continue;
          withWork++;
          expect({
            id: row.id,
            due: row.nextLifecycleAt !== null && row.nextLifecycleAt <= now,
          }).toEqual({
            id: row.id,
            due: true,
          });
          break;
        }
      }
      expect(withWork).toBeGreaterThan(1000);
    });

    it('is kept on every write, and the sweep claims only licences that are due', async () => {
      const id = randomUUID();
      await handle.db.insert(licences).values({
        id,
        type: 'Paid',
        edition: 'Pro',
        email: 'kept@example.com',
        emailNormalized: 'kept@example.com',
        keyHash: `hash-kept-${id}`,
        keyHint: 'ABCD',
        productId: 'orgsmith-cli',
        expiresAt: t0,
        subscriptionStatus: 'active',
      });
      const read = async () =>
        (await handle.db.select().from(licences).where(eq(licences.id, id)))[0]!.nextLifecycleAt;
      expect(await read()).toEqual(new Date(t0.getTime() + 23 * 3_600_000));
      await handle.db.update(licences).set({ expiresAt: null }).where(eq(licences.id, id));
      expect(await read()).toBeNull();
      await handle.db
        .update(licences)
        .set({ status: 'Deactivated', deactivatedAt: t0 })
        .where(eq(licences.id, id));
      expect((await read())!.getTime()).toBeLessThan(new Date('2026-03-31T10:00:00Z').getTime());

      const repository = createLifecycleRepository(handle.db);
      const claimedAt = async (now: Date) =>
        handle.db.transaction(async (tx) =>
          (
            await createLifecycleRepository(tx).claimSweepBatch(
              await createLifecycleRepository(tx).dueLicenceIds(now, 100_000),
              now,
            )
          ).map((row) => row.id),
        );
      expect(repository).toBeDefined();
      expect(await claimedAt(t0)).not.toContain(id);
      expect(await claimedAt(new Date('2026-04-01T00:00:00Z'))).toContain(id);
    });
  },
);

import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { accessTokens, auditEventDetails, auditEvents, licences } from '../db/schema.ts';
import { actingAs } from './audit-context.ts';
import {
  createAuditLogRepository,
  recordAuditEvent,
  verifyAuditChain,
} from './audit-log-repository.ts';

async function insertLicence(handle: DatabaseHandle, email: string): Promise<string> {
  const id = randomUUID();
  await handle.db.insert(licences).values({
    id,
    type: 'Trial',
    edition: 'Enterprise',
    email,
    emailNormalized: email.toLowerCase(),
    keyHash: `hash-${id}`,
    keyHint: id.slice(0, 4),
    productId: 'orgsmith-cli',
  });
  return id;
}

/** Runs `statement` as the app would and returns the database's refusal, if any. */
async function refusal(handle: DatabaseHandle, statement: ReturnType<typeof sql>) {
  try {
    await handle.db.execute(statement);
    return undefined;
  } catch (error) {
    // Drizzle wraps the database's error: its message is the cause's.
    const cause: unknown = Reflect.get(Object(error), 'cause') ?? error;
    return String(Reflect.get(Object(cause), 'message') ?? cause);
  }
}

describe.each(databaseTargets)('the audit log on $name', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(() => handle.close());

  it('records every change of a licence with its actor, reason and before/after, in the change’s transaction', async () => {
    const id = await actingAs({ actor: 'cli:ops', reason: 'seeded by a test' }, async () =>
      handle.db.transaction(async (tx) => {
        const licenceId = randomUUID();
        await tx.insert(licences).values({
          id: licenceId,
          type: 'Trial',
          edition: 'Enterprise',
          email: 'Dev+x@Example.test',
          emailNormalized: 'dev@example.test',
          keyHash: `hash-${licenceId}`,
          keyHint: 'AB12',
          productId: 'orgsmith-cli',
        });
        return licenceId;
      }),
    );
    await actingAs({ actor: 'operator:7', reason: 'chargeback' }, () =>
      handle.db.transaction((tx) =>
        tx
          .update(licences)
          .set({ revokedAt: new Date(), revocationReason: 'chargeback' })
          .where(eq(licences.id, id)),
      ),
    );
    // A write that changes nothing audited (only updated_at) writes nothing.
    await handle.db.update(licences).set({ updatedAt: new Date() }).where(eq(licences.id, id));

    const events = await createAuditLogRepository(handle.db).ofTarget('licence', id);
    expect(events.map((event) => [event.action, event.actor, event.details?.reason])).toEqual([
      ['licence.revoked', 'operator:7', 'chargeback'],
      ['licence.created', 'cli:ops', 'seeded by a test'],
    ]);
    const [revoked] = events;
    expect(revoked?.details?.subjectEmail).toBe('Dev+x@Example.test');
    expect(revoked?.details?.before).toMatchObject({ revoked_at: null, key_hint: 'AB12' });
    expect(revoked?.details?.after).toMatchObject({ revocation_reason: 'chargeback' });
    // No secret and no derived column in the record.
    expect(JSON.stringify(revoked?.details)).not.toContain('key_hash');

    // A change rolled back leaves no event.
    const before = (await createAuditLogRepository(handle.db).ofTarget('licence', id)).length;
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.update(licences).set({ status: 'Deactivated' }).where(eq(licences.id, id));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await createAuditLogRepository(handle.db).ofTarget('licence', id)).toHaveLength(before);
  });

  it('writes a customer actor as "customer" in the chain and the address in the details only', async () => {
    const id = await insertLicence(handle, 'buyer@example.test');
    await actingAs({ actor: 'customer:buyer@example.test' }, () =>
      handle.db.transaction((tx) =>
        tx.insert(accessTokens).values({
          id: randomUUID(),
          licenceId: id,
          tokenHash: `token-${id}`,
          tokenHint: 'wxyz',
          name: 'ci',
          createdVia: 'self-service',
        }),
      ),
    );
    const [row] = await handle.db
      .select({ actor: auditEvents.actor, detailsActor: auditEventDetails.actor })
      .from(auditEvents)
      .innerJoin(auditEventDetails, eq(auditEventDetails.eventId, auditEvents.id))
      .where(eq(auditEvents.action, 'access_token.created'))
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    expect(row).toEqual({ actor: 'customer', detailsActor: 'customer:buyer@example.test' });
  });

  it('attributes a change made outside any context to system:unattributed', async () => {
    const id = await insertLicence(handle, 'nobody@example.test');
    const [event] = await createAuditLogRepository(handle.db).ofTarget('licence', id);
    expect(event?.actor).toBe('system:unattributed');
  });

  it('records events the code names itself, in the caller’s transaction', async () => {
    const id = await insertLicence(handle, 'org@example.test');
    await actingAs({ actor: 'customer:org@example.test', requestId: 'req-1' }, () =>
      handle.db.transaction((tx) =>
        recordAuditEvent(tx, {
          action: 'licence.org_released',
          targetType: 'licence',
          targetId: id,
          subjectEmail: 'org@example.test',
          before: { orgId: '00D000000000001AAA' },
        }),
      ),
    );
    const [event] = await createAuditLogRepository(handle.db).ofTarget('licence', id);
    expect(event).toMatchObject({
      action: 'licence.org_released',
      actor: 'customer',
      requestId: 'req-1',
      details: { actor: 'customer:org@example.test', before: { orgId: '00D000000000001AAA' } },
    });
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the log, and of details outside an erasure', async () => {
    await insertLicence(handle, 'immutable@example.test');
    for (const statement of [
      sql`update audit_events set actor = 'cli:mallory'`,
      sql`delete from audit_events`,
      sql`truncate audit_events cascade`,
      sql`update audit_event_details set reason = 'nothing happened'`,
      sql`delete from audit_event_details`,
      sql`truncate audit_event_details`,
    ]) {
      expect(await refusal(handle, statement)).toMatch(/the audit log cannot be changed/);
    }
    expect(await verifyAuditChain(handle.db)).toMatchObject({ ok: true });
  });

  it('verifies the chain, and names the first edited, inserted or removed event', async () => {
    const verdict = await verifyAuditChain(handle.db);
    if (!verdict.ok) throw new Error(verdict.problem);
    expect(verdict.events).toBeGreaterThan(4);
    const [first] = await handle.db
      .select()
      .from(auditEvents)
      .orderBy(auditEvents.id)
      .limit(1)
      .offset(2);
    if (!first) throw new Error('no event');
    // Whoever owns the tables can switch the triggers off; the chain still tells.
    const tamper = async (statement: ReturnType<typeof sql>) => {
      await handle.db.transaction(async (tx) => {
        await tx.execute(sql`alter table audit_events disable trigger user`);
        await tx.execute(sql`alter table audit_event_details disable trigger user`);
        await tx.execute(statement);
        await tx.execute(sql`alter table audit_events enable trigger user`);
        await tx.execute(sql`alter table audit_event_details enable trigger user`);
      });
    };
    await tamper(
      sql`update audit_event_details set reason = 'edited' where event_id = ${first.id}`,
    );
    expect(await verifyAuditChain(handle.db)).toMatchObject({
      ok: false,
      brokenAt: first.id,
      problem: 'its details were changed',
    });
    await tamper(
      sql`update audit_event_details set reason = ${null} where event_id = ${first.id} and reason = 'edited'`,
    );
    const restored = await handle.db
      .select()
      .from(auditEventDetails)
      .where(eq(auditEventDetails.eventId, first.id));
    // Restoring the old reason (null for this event) makes it whole again.
    if (restored[0]?.reason === null) {
      expect(await verifyAuditChain(handle.db)).toMatchObject({ ok: true });
    }
    await tamper(sql`update audit_events set actor = 'cli:mallory' where id = ${first.id}`);
    expect(await verifyAuditChain(handle.db)).toMatchObject({
      ok: false,
      brokenAt: first.id,
      problem: 'its fields were changed',
    });
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEventDetails, auditEvents, licences } from '#server/platform/db/schema.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { outboxRows, postJson, requestTrial } from './account-support.ts';
import {
  createCheckout,
  licenceKeyPattern,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';
import { enterpriseOrder, orderAndConfirm } from '#tests/security/support/invoice-orders.ts';

const exported = z.object({
  id: z.number(),
  occurredAt: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string() }),
  reason: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  detailsErased: z.boolean(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

describe.each(databaseTargets)('the audit trail on $name', (target) => {
  let t: TestApp;
  let dir: string;
  const address = 'Ada.Audit+ci@Example.com';
  const cliUser = `cli:${(process.env.SUDO_USER ?? userInfo().username).replace(/[^A-Za-z0-9._-]/g, '_')}`;

  beforeAll(async () => {
    t = await createTestApp(target);
    dir = await mkdtemp(join(tmpdir(), 'orgsmith-audit-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function licenceOf(email: string) {
    const [row] = await t.deps.database.db
      .select()
      .from(licences)
      .where(eq(licences.emailNormalized, normalizeEmailAddress(email)));
    if (!row) throw new Error('no licence');
    return row;
  }

  it('names who changed a licence — the customer, the key’s holder, the operator at the CLI — and why', async () => {
    expect(
      (await requestTrial(t, { emailAddress: address, productId: 'orgsmith-cli' })).status,
    ).toBe(204);
    const licence = await licenceOf(address);
    const key = (await outboxRows(t))
      .map((row) => licenceKeyPattern.exec(row.textBody ?? '')?.[0])
      .find(Boolean);
    if (!key) throw new Error('no key mailed');
    const token = await postJson(t, '/account/v1/access-tokens', { licenseKey: key, name: 'ci' });
    expect(token.status).toBe(201);
    const revoked = await runAdminOn(t, 'licences', 'revoke', licence.id, '--reason', 'chargeback');
    expect(revoked.code).toBe(0);

    const listed = await runAdminOn(t, 'audit', 'list', '--target', `licence:${licence.id}`);
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(/^ID\s+TIME \(UTC\)\s+ACTOR\s+ACTION\s+TARGET\s+REASON$/);
    // Newest first: the revocation by the operator with the reason, then the trial's creation by
    // the address that asked for it (normalized: one person whatever the spelling).
    expect(lines[1]).toMatch(
      new RegExp(`${cliUser}\\s+licence\\.revoked\\s+licence:${licence.id}\\s+chargeback$`),
    );
    expect(lines.at(-1)).toMatch(/customer:ada\.audit@example\.com\s+licence\.created/);

    // The token was made by the key's holder and revoked with the licence by the operator.
    const tokenEvents = await t.deps.database.db
      .select({ action: auditEvents.action, actor: auditEventDetails.actor })
      .from(auditEvents)
      .innerJoin(auditEventDetails, eq(auditEventDetails.eventId, auditEvents.id))
      .where(eq(auditEvents.targetType, 'access_token'))
      .orderBy(auditEvents.id);
    expect(tokenEvents).toEqual([
      { action: 'access_token.created', actor: 'customer:ada.audit@example.com' },
      { action: 'access_token.revoked', actor: cliUser },
    ]);
  });

  it('verifies the chain, exports a period as NDJSON, and refuses bad options', async () => {
    const verified = await runAdminOn(t, 'audit', 'verify');
    expect(verified.code).toBe(0);
    expect(verified.out).toMatch(/^ok: \d+ events, chain intact\nhead: event \d+, [0-9a-f]{64}$/);

    // Events are dated by the database's clock, not the test app's: a period around today.
    const dayOf = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const day = dayOf(0);
    const exportedRun = await runAdminOn(
      t,
      'audit',
      'export',
      '--from',
      dayOf(-1),
      '--to',
      dayOf(1),
    );
    expect(exportedRun.code).toBe(0);
    const events = exportedRun.out.split('\n').map((line) => exported.parse(JSON.parse(line)));
    expect(events.find((event) => event.action === 'licence.revoked')).toMatchObject({
      actor: cliUser,
      reason: 'chargeback',
      detailsErased: false,
      after: expect.objectContaining({ revocation_reason: 'chargeback' }),
    });
    expect(events.map((event) => event.id)).toEqual(
      [...events.map((event) => event.id)].sort((a, b) => a - b),
    );

    for (const argv of [
      ['audit', 'export', '--from', '2026-13-01', '--to', day],
      ['audit', 'export', '--from', day],
      ['audit', 'export', '--from', day, '--to', '2020-01-01'],
      ['audit', 'list', '--target', 'licence'],
      ['audit', 'list', '--limit', '0'],
    ]) {
      expect((await runAdminOn(t, ...argv)).code).toBe(2);
    }
  });

  it('keeps the events but erases their details with the person, and still verifies', async () => {
    const out = join(dir, 'export.json');
    expect((await runAdminOn(t, 'privacy', 'export', address, '--out', out)).code).toBe(0);
    const trail = z
      .object({ auditTrail: z.array(z.object({ action: z.string(), actor: z.string() })) })
      .parse(JSON.parse(await readFile(out, 'utf8'))).auditTrail;
    expect(trail.map((event) => event.action)).toEqual(
      expect.arrayContaining(['licence.created', 'access_token.created', 'licence.revoked']),
    );

    const before = (await t.deps.database.db.select().from(auditEvents)).length;
    expect((await runAdminOn(t, 'privacy', 'erase', address)).code).toBe(0);
    const left = await t.deps.database.db
      .select({ actor: auditEventDetails.actor, subject: auditEventDetails.subjectEmail })
      .from(auditEventDetails);
    expect(JSON.stringify(left).toLowerCase()).not.toContain('ada.audit');
    // The erasure's own deletions are events too; none was removed.
    expect((await t.deps.database.db.select().from(auditEvents)).length).toBeGreaterThan(before);
    const verified = await runAdminOn(t, 'audit', 'verify');
    expect(verified.out).toMatch(/^ok: \d+ events, chain intact \(\d+ with details erased\)/);
  });

  it('exits 1 naming the first event someone with the tables’ owner rights edited', async () => {
    const [victim] = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'licence.revoked'));
    if (!victim) throw new Error('no event');
    await t.deps.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger user`);
      await tx.execute(
        sql`update audit_events set actor = 'system:nobody' where id = ${victim.id}`,
      );
      await tx.execute(sql`alter table audit_events enable trigger user`);
    });
    const verified = await runAdminOn(t, 'audit', 'verify');
    expect(verified.code).toBe(1);
    expect(verified.err).toMatch(
      new RegExp(`^broken: event ${victim.id} of \\d+ read: its fields were changed\\.$`),
    );
  });

  it('attributes every change a trial, a card purchase and an invoice order make to someone', async () => {
    await requestTrial(t, { emailAddress: 'attributed@example.com', productId: 'orgsmith-cli' });
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    await payLocally(t, sessionId, { email: 'card-buyer@example.com', card: successCard });
    await orderAndConfirm(t, enterpriseOrder('ap@attributed-company.test'));
    const unattributed = await t.deps.database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.actor, 'system:unattributed'));
    // A change outside a transaction, or outside any context, would be written so (decision 224).
    expect(unattributed).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeBackup } from '#server/backup/backup-file.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { erasePersonalDataOf } from '#server/features/privacy/privacy-requests.ts';
import { licences, privacyRequests, subscriptions } from '#server/platform/db/schema.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, runAdminOn, updateLicence } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { postJson, requestTrial } from './account-support.ts';

const ADDRESS = 'Erin.Doe@Example.com';

/** The tables of a backup file whose rows mention `needle` (case-insensitive). */
function tablesMentioning(backup: Buffer, needle: string): string[] {
  const found = new Set<string>();
  let table = '';
  for (const line of gunzipSync(backup).toString('utf8').split('\n')) {
    if (!line) continue;
    const parsed: unknown = JSON.parse(line);
    const name = z.object({ table: z.string() }).safeParse(parsed);
    if (name.success) table = name.data.table;
    else if (line.toLowerCase().includes(needle.toLowerCase()) && 'rows' in Object(parsed)) {
      found.add(table);
    }
  }
  return [...found].sort();
}

describe.each(databaseTargets)('privacy export and erase on $name', (target) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    dir = await mkdtemp(join(tmpdir(), 'privacy-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });
  const admin = (...argv: string[]) => runAdminOn(t, ...argv);

  it('exports, erases what no law keeps, and a fresh backup no longer holds the address', async () => {
    expect(
      (await requestTrial(t, { emailAddress: ADDRESS, productId: 'orgsmith-cli' })).status,
    ).toBe(204);
    expect(
      (
        await postJson(t, '/api/submitContactForm', {
          name: 'Erin Doe',
          emailAddress: 'erin.doe@example.com',
          message: 'Please send me a quote.',
        })
      ).status,
    ).toBeLessThan(300);
    expect(
      (
        await postJson(t, '/account/v1/quotes', {
          emailAddress: ADDRESS,
          companyName: 'Doe GmbH',
          addressLine: 'Hauptstraße 1',
          postalCode: '10115',
          city: 'Berlin',
          country: 'DE',
          edition: 'Pro',
          quantity: 4,
          billingPeriod: 'yearly',
          billingCurrency: 'EUR',
        })
      ).status,
    ).toBeLessThan(300);
    await createLicence(t, { email: 'someone.else@example.com' });

    const out = join(dir, 'export.json');
    const exported = await admin('privacy', 'export', 'erin.doe@EXAMPLE.com', '--out', out);
    expect(exported).toMatchObject({ code: 0 });
    expect(exported.out).toMatch(/licences 1.*quotes 1.*contactMessages 1.*emails [2-9]/);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const document = z
      .object({
        licences: z.array(z.object({ email: z.string() })),
        quotes: z.array(z.object({ companyName: z.string() })),
        contactMessages: z.array(z.object({ message: z.string() })),
        emailsSent: z.array(z.object({ to: z.string(), subject: z.string() })),
        trialClaim: z.object({ firstLicenceType: z.string() }),
      })
      .parse(JSON.parse(await readFile(out, 'utf8')));
    expect(document.licences.map((licence) => licence.email)).toEqual([ADDRESS]);
    expect(document.quotes[0]?.companyName).toBe('Doe GmbH');
    expect(document.contactMessages[0]?.message).toBe('Please send me a quote.');
    const exportedText = await readFile(out, 'utf8');
    expect(exportedText).not.toContain('keyHash');
    expect(exportedText).not.toContain('someone.else');

    const dry = await admin('privacy', 'erase', ADDRESS, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Dry run: nothing was changed.');
    expect(dry.out).toMatch(/Would erase: .*licences 1/);
    expect(await t.deps.database.db.select().from(licences)).toHaveLength(2);

    const erased = await admin('privacy', 'erase', ADDRESS);
    expect(erased.code).toBe(0);
    expect(erased.out).toMatch(/^Erased: .*licences 1.*email_outbox [2-9].*contact_messages 1/m);
    // A quote that led to no order is no commercial letter to keep (decision 211).
    expect(erased.out).toMatch(/^Erased: .*quotes 1/m);
    expect(erased.out).toMatch(/^Kept: trial_claims 1 — a keyed hash/m);

    const backup = join(dir, 'after-erasure.jsonl.gz');
    await writeBackup(t.deps.database.db, backup, { database: target.name, now: t.deps.clock() });
    expect(tablesMentioning(await readFile(backup), 'erin.doe')).toEqual([]);
    expect(tablesMentioning(await readFile(backup), 'someone.else')).toContain('licences');

    const audit = await t.deps.database.db.select().from(privacyRequests);
    expect(audit.map((row) => [row.kind, row.dryRun])).toEqual([
      ['export', false],
      ['erase', true],
      ['erase', false],
    ]);
    expect(new Set(audit.map((row) => row.subjectHash)).size).toBe(1);
    expect(JSON.stringify(audit).toLowerCase()).not.toContain('erin');
  });

  it('refuses usage mistakes', async () => {
    expect(await admin('privacy', 'erase')).toMatchObject({ code: 2 });
    expect(await admin('privacy', 'export', 'not-an-address')).toMatchObject({ code: 2 });
    expect(await admin('privacy', 'export', 'a@example.com', 'b@example.com')).toMatchObject({
      code: 2,
    });
  });

  it('refuses with the reason, erasing nothing, when the provider does not end a subscription', async () => {
    const { licence } = await createLicence(t, { email: 'paying@example.com' });
    const deps = syncDepsOf(t.deps);
    const subscriptionId = `sub_${randomUUID()}`;
    const now = t.deps.clock();
    await t.deps.database.db.insert(subscriptions).values({
      provider: deps.payments.name,
      subscriptionId,
      licenceId: licence.id,
      customerId: 'cus_1',
      status: 'active',
      edition: 'Pro',
      quantity: 4,
      billingPeriod: 'yearly',
      currency: 'EUR',
      currentPeriodEnd: new Date(now.getTime() + 86_400_000),
      cancelAtPeriodEnd: false,
      snapshotReadAt: now,
    });
    const refusing = {
      ...deps,
      secretKey: t.deps.secretKey,
      dataDir: t.deps.env.DATA_DIR,
      payments: {
        ...deps.payments,
        name: deps.payments.name,
        cancelSubscription: () => Promise.reject(new Error('provider unreachable')),
      },
    };
    const result = await erasePersonalDataOf(refusing, 'paying@example.com', { dryRun: false });
    expect(result).toEqual({
      ok: false,
      reason: `The payment provider did not end subscription ${subscriptionId} (provider unreachable); nothing was erased.`,
    });
    expect(
      await t.deps.database.db.select().from(licences).where(eq(licences.id, licence.id)),
    ).toHaveLength(1);
  });
  it('ends a running subscription at the provider first, then erases and keeps its record', async () => {
    const { licence } = await createLicence(t, { email: 'ending@example.com' });
    const deps = syncDepsOf(t.deps);
    const subscriptionId = `sub_${randomUUID()}`;
    const now = t.deps.clock();
    const snapshot = {
      provider: deps.payments.name,
      subscriptionId,
      customerId: 'cus_2',
      customerEmail: 'ending@example.com',
      status: 'active' as const,
      edition: 'Pro' as const,
      quantity: 4,
      billingPeriod: 'yearly' as const,
      currency: 'EUR' as const,
      currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
      cancelAtPeriodEnd: false,
      endedAt: null,
      endedForNonPayment: false,
      licenceIdToConvert: null,
      quoteNumber: null,
      collection: 'card' as const,
      openInvoice: null,
      paymentReceived: true,
    };
    await t.deps.database.db.insert(subscriptions).values({
      ...snapshot,
      licenceId: licence.id,
      snapshotReadAt: now,
    });
    await updateLicence(t, licence.id, { subscriptionId, customerId: 'cus_2' });
    const cancelled: string[] = [];
    let current:
      | typeof snapshot
      | (Omit<typeof snapshot, 'status' | 'endedAt'> & {
          status: 'canceled';
          endedAt: Date;
        }) = snapshot;
    const ending = {
      ...deps,
      secretKey: t.deps.secretKey,
      dataDir: t.deps.env.DATA_DIR,
      payments: {
        ...deps.payments,
        name: deps.payments.name,
        cancelSubscription: async (id: string) => {
          cancelled.push(id);
          current = { ...snapshot, status: 'canceled', endedAt: now };
        },
        retrieveSubscription: async () => current,
      },
    };
    const dry = await erasePersonalDataOf(ending, 'ending@example.com', { dryRun: true });
    expect(dry).toMatchObject({ ok: true, toEnd: [subscriptionId], ended: [] });
    expect(cancelled).toEqual([]);

    const result = await erasePersonalDataOf(ending, 'Ending@Example.com', { dryRun: false });
    expect(cancelled).toEqual([subscriptionId]);
    expect(result).toMatchObject({ ok: true, ended: [subscriptionId], erased: { licences: 1 } });
    const [kept] = await t.deps.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    expect(kept).toMatchObject({ status: 'canceled', licenceId: null });
    expect(
      await t.deps.database.db.select().from(licences).where(eq(licences.id, licence.id)),
    ).toEqual([]);
  });
});

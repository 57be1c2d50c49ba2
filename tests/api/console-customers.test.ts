import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import { databaseTargets } from '../support/databases.ts';
import { signedInOperator, type ConsoleTestOperator } from '../support/console-operator.ts';
import { createLicence, orgId, postJson, updateLicence } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const VALIDATE = '/account/v1/licenses/validate';

describe.each(databaseTargets)('support in the console on $name', (target) => {
  let t: TestApp;
  let support: ConsoleTestOperator;
  let viewer: ConsoleTestOperator;
  beforeAll(async () => {
    t = await createTestApp(target, {
      env: { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' },
    });
    support = await signedInOperator(t, 'support');
    viewer = await signedInOperator(t, 'viewer');
  });
  afterAll(() => t.close());

  const validate = async (key: string, org = 3) =>
    z.object({ code: z.string() }).parse(
      await (
        await postJson(t, VALIDATE, {
          licenseKey: key,
          productId: 'orgsmith-cli',
          orgId: orgId(org),
        })
      ).json(),
    ).code;

  it('finds a customer and tells the story to anyone who may read licences', async () => {
    const { licence, key } = await createLicence(t, { email: 'Console.Customer+x@example.com' });
    expect(await validate(key)).toBe('VALID');
    const found = await viewer.request(`customers?q=${encodeURIComponent(key)}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({
      kind: 'licence key',
      hits: [{ customer: 'console.customer@example.com' }],
    });
    const story = await viewer.request(
      `customer?address=${encodeURIComponent('CONSOLE.customer@example.com')}`,
    );
    expect(story.status).toBe(200);
    expect(await story.json()).toMatchObject({
      customer: 'console.customer@example.com',
      licences: [{ id: licence.id, orgsInUse: 1 }],
    });
    expect((await viewer.request('customers?q=')).status).toBe(400);
    expect((await viewer.request('customer?address=nobody%40example.com')).status).toBe(404);
  });

  it('lets support suspend with a reason; validation follows; the audit row names the operator', async () => {
    const { licence, key } = await createLicence(t);
    const refused = await viewer.request(`licences/${licence.id}/revoke`, {
      body: { reason: 'viewer tries' },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ permission: 'licence.revoke' });
    expect(await validate(key)).toBe('VALID');

    // Support may not revoke for good either (owner only), but may release an org.
    expect(
      (await support.request(`licences/${licence.id}/revoke`, { body: { reason: 'fraud' } }))
        .status,
    ).toBe(403);
    const released = await support.request(`licences/${licence.id}/release-org`, {
      body: { reason: 'sandbox refresh, ticket 12', orgId: orgId(3) },
    });
    expect(released.status).toBe(200);
    expect(await released.json()).toMatchObject({ changed: true, state: 'valid' });
    const [event] = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'licence',
      licence.id,
    );
    expect(event).toMatchObject({
      action: 'licence.org_released',
      actor: `operator:${support.id}`,
    });
    expect(event?.details?.reason).toBe('sandbox refresh, ticket 12');

    const owner = await signedInOperator(t, 'owner');
    const revoked = await owner.request(`licences/${licence.id}/revoke`, {
      body: { reason: 'chargeback' },
    });
    expect(revoked.status).toBe(200);
    expect(await validate(key)).toBe('DEACTIVATED');
  });

  it('answers bad requests with a clear 4xx and changes nothing', async () => {
    const { licence, key } = await createLicence(t, { type: 'Paid' });
    for (const [path, body, status] of [
      [`licences/${licence.id}/release-org`, { orgId: orgId(1) }, 400],
      [`licences/${licence.id}/release-org`, { reason: '   ', orgId: orgId(1) }, 400],
      [`licences/${licence.id}/extend-trial`, { reason: 'r', days: 7 }, 409],
      [`licences/${licence.id}/release-org`, { reason: 'r', orgId: orgId(9) }, 404],
      ['licences/00000000-0000-4000-8000-000000000000/resend-key', { reason: 'r' }, 404],
      [`licences/${licence.id}/revoke-token`, { reason: 'r', tokenId: 'nope' }, 400],
    ] as const) {
      expect({ path, status: (await support.request(path, { body })).status }).toEqual({
        path,
        status,
      });
    }
    expect(await validate(key)).toBe('VALID');
  });

  it("lets support change a Pro licence's org limit with a reason; validation and the audit log follow", async () => {
    const { licence, key } = await createLicence(t, { quantity: 4 });
    for (const n of [11, 12, 13, 14]) expect(await validate(key, n)).toBe('VALID');
    const fifth = await validate(key, 15);
    expect(fifth).not.toBe('VALID');

    const refused = await viewer.request(`licences/${licence.id}/change-orgs`, {
      body: { reason: 'viewer tries', orgs: 6 },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ permission: 'licence.change_orgs' });

    const changed = await support.request(`licences/${licence.id}/change-orgs`, {
      body: { reason: 'two more orgs agreed, ticket 31', orgs: 6 },
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ changed: true, state: 'valid' });
    expect(await validate(key, 15)).toBe('VALID');
    const [event] = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'licence',
      licence.id,
    );
    expect(event).toMatchObject({
      action: 'licence.plan_changed',
      actor: `operator:${support.id}`,
    });
    expect(event?.details?.reason).toBe('two more orgs agreed, ticket 31');
    const story = await viewer.request(`customer?address=${encodeURIComponent(licence.email)}`);
    expect(await story.json()).toMatchObject({ licences: [{ id: licence.id, orgLimit: 6 }] });

    const again = await support.request(`licences/${licence.id}/change-orgs`, {
      body: { reason: 'again', orgs: 6 },
    });
    expect(await again.json()).toMatchObject({ changed: false });
  });

  it('refuses an org limit out of range, on a licence that is not Pro or follows a subscription, changing nothing', async () => {
    const { licence } = await createLicence(t, { quantity: 5 });
    const starter = (await createLicence(t, { edition: 'Starter', quantity: 3 })).licence;
    const subscribed = (await createLicence(t, { quantity: 5 })).licence;
    await updateLicence(t, subscribed.id, { subscriptionId: `sub_console_${Date.now()}` });
    for (const [id, body, status] of [
      [licence.id, { orgs: 6 }, 400],
      [licence.id, { reason: 'r', orgs: 3 }, 400],
      [licence.id, { reason: 'r', orgs: 25 }, 400],
      [licence.id, { reason: 'r', orgs: 6.5 }, 400],
      [licence.id, { reason: 'r', orgs: '6' }, 400],
      [starter.id, { reason: 'r', orgs: 6 }, 409],
      [subscribed.id, { reason: 'r', orgs: 6 }, 409],
      ['00000000-0000-4000-8000-000000000000', { reason: 'r', orgs: 6 }, 404],
    ] as const) {
      const answer = await support.request(`licences/${id}/change-orgs`, { body });
      expect({ id, body, status: answer.status }).toEqual({ id, body, status });
    }
    const story = z
      .object({ licences: z.array(z.object({ id: z.string(), quantity: z.number() })) })
      .parse(
        await (
          await viewer.request(`customer?address=${encodeURIComponent(licence.email)}`)
        ).json(),
      );
    expect(story.licences.find((row) => row.id === licence.id)?.quantity).toBe(5);
    const events = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'licence',
      subscribed.id,
    );
    expect(events.map((event) => event.action)).not.toContain('licence.plan_changed');
  });
});

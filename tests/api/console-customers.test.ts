import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import { databaseTargets } from '../support/databases.ts';
import { signedInOperator, type ConsoleTestOperator } from '../support/console-operator.ts';
import { createLicence, orgId, postJson } from '../support/licensing.ts';
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

  const validate = async (key: string) =>
    z.object({ code: z.string() }).parse(
      await (
        await postJson(t, VALIDATE, {
          licenseKey: key,
          productId: 'orgsmith-cli',
          orgId: orgId(3),
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
});

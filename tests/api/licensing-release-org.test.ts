import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { licenceOrgReleases } from '#server/platform/db/schema.ts';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId, postJson, runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const VALIDATE = '/account/v1/licenses/validate';
const RELEASE = '/account/v1/licenses/release-org';
const productId = 'orgsmith-cli';
const DAY = 86_400_000;

const released = z.strictObject({
  orgId: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  releasesLeft: z.number(),
  releasesResetAt: z.string().nullable(),
});

describe.each(databaseTargets)('releasing an org on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-03-02T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp(target, {
      now: start,
      env: { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' },
    });
  });
  afterAll(() => t.close());

  const code = async (key: string, n: number) =>
    z
      .object({ code: z.string() })
      .parse(
        await (await postJson(t, VALIDATE, { licenseKey: key, productId, orgId: orgId(n) })).json(),
      ).code;
  const releases = async () => (await t.deps.database.db.select().from(licenceOrgReleases)).length;

  it('frees the slot at once, by key or access token, three times a month, then says to contact support', async () => {
    t.setNow(start);
    const { licence, key } = await createLicence(t, { quantity: 4 });
    for (let n = 1; n <= 4; n++) expect(await code(key, n)).toBe('VALID');
    // The refreshed sandbox's new id is refused…
    expect(await code(key, 5)).toBe('TOO_MANY_ORGS');

    // …until the old one is released.
    const first = await postJson(t, RELEASE, { licenseKey: key, orgId: orgId(1) });
    expect(first.status).toBe(200);
    expect(released.parse(await first.json())).toMatchObject({
      orgId: expect.stringMatching(/^00D5g0000000001\w{3}$/),
      releasesLeft: 2,
      releasesResetAt: null,
    });
    expect(await code(key, 5)).toBe('VALID');

    // With an access token instead of the key.
    const token = await postJson(t, '/account/v1/access-tokens', { licenseKey: key, name: 'ci' });
    const { token: secret } = z.object({ token: z.string() }).parse(await token.json());
    const second = await postJson(
      t,
      RELEASE,
      { orgId: orgId(2) },
      { Authorization: `Bearer ${secret}` },
    );
    expect(second.status).toBe(200);
    expect(released.parse(await second.json()).releasesLeft).toBe(1);

    const third = await postJson(t, RELEASE, { licenseKey: key, orgId: orgId(3) });
    expect(released.parse(await third.json())).toMatchObject({
      releasesLeft: 0,
      releasesResetAt: new Date(start.getTime() + 30 * DAY).toISOString(),
    });

    // The fourth within 30 days is refused and changes nothing: the org keeps its slot.
    const before = await releases();
    const fourth = await postJson(t, RELEASE, { licenseKey: key, orgId: orgId(4) });
    expect(fourth.status).toBe(409);
    const refusal = z.object({ Error: z.string(), message: z.string() }).parse(await fourth.json());
    expect(refusal.Error).toBe('OrgReleaseLimit');
    expect(refusal.message).toContain('2026-04-01');
    expect(refusal.message).toContain('support@orgsmith.io');
    expect(await releases()).toBe(before);
    expect(await code(key, 4)).toBe('VALID');

    // An operator is not capped, and says why.
    const byOperator = await runAdminOn(
      t,
      'licences',
      'release-org',
      licence.id,
      orgId(4),
      '--reason',
      'sandbox refresh, ticket 4711',
    );
    expect(byOperator.code).toBe(0);
    expect(byOperator.out).toMatch(/^Released org 00D5g0000000004\w{3} from licence /);

    // Every release is audited with who did it.
    const events = (
      await createAuditLogRepository(t.deps.database.db).ofTarget('licence', licence.id)
    ).filter((event) => event.action === 'licence.org_released');
    expect(events).toHaveLength(4);
    expect(events[0]?.details).toMatchObject({ reason: 'sandbox refresh, ticket 4711' });
    expect(events[0]?.details?.actor).toMatch(/^cli:/);
    expect(events.slice(1).every((event) => event.actor === 'customer')).toBe(true);

    // A month after the first release the customer may release again.
    t.setNow(new Date(start.getTime() + 30 * DAY + 1000));
    expect(await code(key, 6)).toBe('VALID');
    const later = await postJson(t, RELEASE, { licenseKey: key, orgId: orgId(6) });
    expect(later.status).toBe(200);
    t.setNow(start);
  });

  it('answers what it cannot do with a clear 4xx and changes nothing', async () => {
    t.setNow(start);
    const { key } = await createLicence(t, { quantity: 4 });
    expect(await code(key, 1)).toBe('VALID');
    const before = await releases();
    const cases: Array<[unknown, Record<string, string>, number, string]> = [
      [{ licenseKey: key, orgId: orgId(9) }, {}, 404, 'OrgNotInUse'],
      [
        { licenseKey: 'ORGS-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA', orgId: orgId(1) },
        {},
        404,
        'LicenseKeyUnknown',
      ],
      [
        { orgId: orgId(1) },
        { Authorization: 'Bearer orgsmith_at_unknown' },
        404,
        'LicenseKeyUnknown',
      ],
      [{ orgId: orgId(1) }, {}, 400, 'InvalidRequest'],
      [{ licenseKey: key, orgId: orgId(1) }, { Authorization: 'Bearer x' }, 400, 'InvalidRequest'],
      [{ licenseKey: key, orgId: orgId(1) }, { Authorization: 'Basic x' }, 400, 'InvalidRequest'],
      [{ licenseKey: key, orgId: '00D5g0000000001XYZ' }, {}, 400, 'InvalidRequest'],
      [{ licenseKey: key, orgId: 'not-an-org' }, {}, 400, 'InvalidRequest'],
      [{ licenseKey: key, orgId: orgId(1), extra: true }, {}, 400, 'InvalidRequest'],
    ];
    for (const [body, headers, status, error] of cases) {
      const answer = await postJson(t, RELEASE, body, headers);
      expect({ body, status: answer.status }).toEqual({ body, status });
      expect(z.object({ Error: z.string() }).parse(await answer.json()).Error).toBe(error);
    }
    expect((await postJson(t, RELEASE, '{"licenseKey":')).status).toBe(400);
    expect(await releases()).toBe(before);
    expect(await code(key, 1)).toBe('VALID');
  });
});

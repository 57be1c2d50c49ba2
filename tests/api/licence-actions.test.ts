import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import {
  licenceActionPermissions,
  licenceActionSchema,
  runLicenceAction,
  type LicenceActionPorts,
} from '#server/licensing/licence-support/licence-actions.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId, postJson } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { mailsTo } from './checkout-support.ts';

const VALIDATE = '/account/v1/licenses/validate';

describe.each(databaseTargets)('support’s licence actions as data on $name', (target) => {
  let t: TestApp;
  let ports: LicenceActionPorts;
  const operator = { actor: 'operator:7f0c' as const, requestId: 'req-console-1' };

  beforeAll(async () => {
    t = await createTestApp(target, {
      env: { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' },
    });
    ports = {
      db: t.deps.database.db,
      secretKey: t.deps.secretKey,
      publicBaseUrl: t.deps.env.PUBLIC_BASE_URL,
      accountBaseUrl: t.deps.env.PUBLIC_BASE_URL,
      clock: t.deps.clock,
    };
  });
  afterAll(() => t.close());

  /** Makes an access token of the licence; answers a function that validates with it. */
  const tokenValidator = async (key: string) => {
    const created = await postJson(t, '/account/v1/access-tokens', { licenseKey: key, name: 'ci' });
    const { token } = z.object({ token: z.string() }).parse(await created.json());
    return async () =>
      z.object({ code: z.string() }).parse(
        await (
          await t.app.request(VALIDATE, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: JSON.stringify({ productId: 'orgsmith-cli' }),
          })
        ).json(),
      ).code;
  };
  const validate = async (key: string, n?: number) =>
    z.object({ code: z.string() }).parse(
      await (
        await postJson(t, VALIDATE, {
          licenseKey: key,
          productId: 'orgsmith-cli',
          ...(n ? { orgId: orgId(n) } : {}),
        })
      ).json(),
    ).code;

  it('revokes and reinstates with a reason; validation follows and the audit log names the operator', async () => {
    const { licence, key } = await createLicence(t);
    const revoked = await runLicenceAction(ports, operator, licence.id, {
      kind: 'revoke',
      reason: 'chargeback on card',
    });
    expect(revoked).toMatchObject({ ok: true, changed: true, state: 'revoked' });
    expect(await validate(key)).toBe('DEACTIVATED');
    expect(
      await runLicenceAction(ports, operator, licence.id, { kind: 'revoke', reason: 'again' }),
    ).toMatchObject({ ok: true, changed: false });
    const reinstated = await runLicenceAction(ports, operator, licence.id, {
      kind: 'reinstate',
      reason: 'bank reversed the chargeback',
    });
    expect(reinstated).toMatchObject({ ok: true, changed: true, state: 'valid' });
    expect(await validate(key)).toBe('VALID');
    const events = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'licence',
      licence.id,
    );
    expect(
      events.slice(0, 2).map((e) => [e.action, e.actor, e.requestId, e.details?.reason]),
    ).toEqual([
      ['licence.reinstated', 'operator:7f0c', 'req-console-1', 'bank reversed the chargeback'],
      ['licence.revoked', 'operator:7f0c', 'req-console-1', 'chargeback on card'],
    ]);
  });

  it('suspends with a reason, keeping the access tokens: they answer with the licence until it is reinstated', async () => {
    const { licence, key } = await createLicence(t);
    const byToken = await tokenValidator(key);
    expect(await byToken()).toBe('VALID');
    const suspended = await runLicenceAction(ports, operator, licence.id, {
      kind: 'suspend',
      reason: 'key shared with another company',
    });
    expect(suspended).toMatchObject({ ok: true, changed: true, state: 'suspended' });
    expect(await validate(key)).toBe('DEACTIVATED');
    expect(await byToken()).toBe('DEACTIVATED');
    expect(
      await runLicenceAction(ports, operator, licence.id, { kind: 'suspend', reason: 'again' }),
    ).toMatchObject({ ok: true, changed: false });
    await runLicenceAction(ports, operator, licence.id, {
      kind: 'reinstate',
      reason: 'the customer bought a second licence',
    });
    expect(await validate(key)).toBe('VALID');
    expect(await byToken()).toBe('VALID');
    const [, event] = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'licence',
      licence.id,
    );
    expect(event).toMatchObject({ action: 'licence.suspended', actor: 'operator:7f0c' });
    expect(event?.details?.reason).toBe('key shared with another company');
    expect(licenceActionPermissions.suspend).toBe('licence.suspend');
  });

  it('revokes a suspended licence for good without a reinstatement in between (decision 248)', async () => {
    const { licence, key } = await createLicence(t);
    const byToken = await tokenValidator(key);
    await runLicenceAction(ports, operator, licence.id, { kind: 'suspend', reason: 'ticket 41' });
    // Suspending again changes nothing; revoking turns the suspension into a revocation.
    expect(
      await runLicenceAction(ports, operator, licence.id, { kind: 'suspend', reason: 'again' }),
    ).toMatchObject({ changed: false });
    const revoked = await runLicenceAction(ports, operator, licence.id, {
      kind: 'revoke',
      reason: 'chargeback confirmed',
    });
    expect(revoked).toMatchObject({ ok: true, changed: true, state: 'revoked' });
    expect(await validate(key)).toBe('DEACTIVATED');
    expect(
      await runLicenceAction(ports, operator, licence.id, { kind: 'revoke', reason: 'again' }),
    ).toMatchObject({ changed: false });
    const [event, before] = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'licence',
      licence.id,
    );
    expect([event?.action, before?.action]).toEqual(['licence.revoked', 'licence.suspended']);
    // The revocation ended the token the suspension kept: reinstating brings back only the key.
    await runLicenceAction(ports, operator, licence.id, { kind: 'reinstate', reason: 'settled' });
    expect(await validate(key)).toBe('VALID');
    expect(await byToken()).not.toBe('VALID');
  });

  it('extends trials only, releases orgs, resends and replaces keys, revokes one token', async () => {
    const trial = await createLicence(t, { type: 'Trial', edition: 'Enterprise', quantity: 1 });
    const extended = await runLicenceAction(ports, operator, trial.licence.id, {
      kind: 'extend-trial',
      reason: 'evaluation over the holidays',
      days: 14,
    });
    expect(extended.ok && extended.licence.expiresAt?.getTime()).toBe(
      (trial.licence.expiresAt?.getTime() ?? 0) + 14 * 86_400_000,
    );
    const paid = await createLicence(t, { quantity: 4 });
    expect(
      await runLicenceAction(ports, operator, paid.licence.id, {
        kind: 'extend-trial',
        reason: 'x',
        days: 1,
      }),
    ).toMatchObject({ ok: false, code: 'NotATrial' });

    expect(await validate(paid.key, 1)).toBe('VALID');
    expect(
      await runLicenceAction(ports, operator, paid.licence.id, {
        kind: 'release-org',
        reason: 'sandbox refresh',
        orgId: orgId(1),
      }),
    ).toMatchObject({ ok: true, changed: true });
    expect(
      await runLicenceAction(ports, operator, paid.licence.id, {
        kind: 'release-org',
        reason: 'again',
        orgId: orgId(1),
      }),
    ).toMatchObject({ ok: false, code: 'OrgNotInUse' });

    const token = await postJson(t, '/account/v1/access-tokens', {
      licenseKey: paid.key,
      name: 'ci',
    });
    const { id: tokenId } = z.object({ id: z.string() }).parse(await token.json());
    expect(
      await runLicenceAction(ports, operator, paid.licence.id, {
        kind: 'revoke-token',
        reason: 'leaked in a build log',
        tokenId,
      }),
    ).toMatchObject({ ok: true, changed: true, summary: 'Revoked access token "ci".' });
    expect(
      await runLicenceAction(ports, operator, trial.licence.id, {
        kind: 'revoke-token',
        reason: 'wrong licence',
        tokenId,
      }),
    ).toMatchObject({ ok: false, code: 'TokenNotFound' });

    expect(
      await runLicenceAction(ports, operator, paid.licence.id, {
        kind: 'resend-key',
        reason: 'customer lost the e-mail',
      }),
    ).toMatchObject({ ok: true });
    expect((await mailsTo(t, paid.licence.email)).map((mail) => mail.kind)).toContain(
      'lost-licence-key',
    );
    const replaced = await runLicenceAction(ports, operator, paid.licence.id, {
      kind: 'replace-key',
      reason: 'key posted on a forum',
      keepTokenIds: [],
    });
    expect(replaced).toMatchObject({ ok: true, changed: true, state: 'valid' });
    expect(await validate(paid.key)).toBe('NOT_FOUND');
    const [event] = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'licence',
      paid.licence.id,
    );
    expect(event).toMatchObject({ action: 'licence.key_replaced', actor: 'operator:7f0c' });
    expect(event?.details?.reason).toBe('key posted on a forum');
  });

  it('reads requests strictly: a reason always, bounded days, real org and token ids', () => {
    for (const bad of [
      { kind: 'revoke' },
      { kind: 'revoke', reason: '   ' },
      { kind: 'revoke', reason: 'x'.repeat(501) },
      { kind: 'extend-trial', reason: 'r', days: 0 },
      { kind: 'extend-trial', reason: 'r', days: 367 },
      { kind: 'extend-trial', reason: 'r', days: 1.5 },
      { kind: 'release-org', reason: 'r', orgId: 'nope' },
      { kind: 'revoke-token', reason: 'r', tokenId: 'nope' },
      { kind: 'delete-everything', reason: 'r' },
      { kind: 'revoke', reason: 'r', extra: 1 },
    ]) {
      expect(licenceActionSchema.safeParse(bad).success).toBe(false);
    }
    expect(Object.keys(licenceActionPermissions).sort()).toEqual([
      'change-orgs',
      'extend-trial',
      'reinstate',
      'release-org',
      'replace-key',
      'resend-key',
      'revoke',
      'revoke-token',
      'suspend',
    ]);
  });
});

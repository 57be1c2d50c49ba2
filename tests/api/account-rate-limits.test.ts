import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  licences,
  rateLimitCounters,
  trialClaims,
} from '#server/platform/db/schema.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { sweepRateLimitCounters } from '#server/platform/rate-limit/rate-limiter.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { freshIp, outboxRows, postJson, requestTrial } from './account-support.ts';

const contact = (emailAddress: string) => ({ name: 'Rita', emailAddress, message: 'Hello' });

describe.each(databaseTargets)('rate limits on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.setNow(new Date('2026-01-15T10:15:00Z'));
    const db = t.deps.database.db;
    await db.delete(rateLimitCounters);
    await db.delete(emailOutbox);
    await db.delete(licences);
    await db.delete(trialClaims);
  });

  async function expectLimited(res: Response, retryAfter: number) {
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(retryAfter));
    expect(await res.json()).toEqual({
      Error: 'TooManyRequests',
      message: `Too many requests. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
    });
  }

  it('limits contact messages per e-mail address (normalized) until the window ends', async () => {
    const { limit } = rateLimitRules.contactPerEmail;
    for (let n = 0; n < limit; n++) {
      expect(
        (await postJson(t, '/api/submitContactForm', contact(`rita+${n}@example.com`))).status,
      ).toBe(204);
    }
    await expectLimited(
      await postJson(t, '/api/submitContactForm', contact('RITA@example.com')),
      45 * 60,
    );
    expect((await postJson(t, '/api/submitContactForm', contact('other@example.com'))).status).toBe(
      204,
    );
    expect(await outboxRows(t)).toHaveLength(limit + 1);
    t.setNow(new Date('2026-01-15T11:00:00Z'));
    expect((await postJson(t, '/api/submitContactForm', contact('rita@example.com'))).status).toBe(
      204,
    );
  });

  it('limits requests per client address, counting bad requests too', async () => {
    const ip = freshIp();
    const { limit } = rateLimitRules.contactPerIp;
    for (let n = 0; n < limit; n++) {
      const body = n % 2 === 0 ? contact(`ip${n}@example.com`) : '{"broken":';
      const res = await postJson(t, '/api/submitContactForm', body, { ip });
      expect(res.status).toBe(n % 2 === 0 ? 204 : 400);
    }
    await expectLimited(
      await postJson(t, '/api/submitContactForm', contact('late@example.com'), { ip }),
      45 * 60,
    );
    expect(
      (await postJson(t, '/api/submitContactForm', contact('late@example.com'), { ip: freshIp() }))
        .status,
    ).toBe(204);
  });

  it('limits trial requests per client address and per address', async () => {
    const ip = freshIp();
    for (let n = 0; n < rateLimitRules.trialPerIp.limit; n++) {
      expect(
        (
          await requestTrial(
            t,
            { emailAddress: `t${n}@example.com`, productId: 'orgsmith-cli' },
            { ip },
          )
        ).status,
      ).toBe(204);
    }
    await expectLimited(
      await requestTrial(
        t,
        { emailAddress: 'one-more@example.com', productId: 'orgsmith-cli' },
        { ip },
      ),
      45 * 60,
    );
    for (let n = 0; n < rateLimitRules.trialPerEmail.limit; n++) {
      expect(
        (await requestTrial(t, { emailAddress: 'same@gmail.com', productId: 'orgsmith-cli' }))
          .status,
      ).toBe(n === 0 ? 204 : 409);
    }
    await expectLimited(
      await requestTrial(t, { emailAddress: 's.a.m.e@gmail.com', productId: 'orgsmith-cli' }),
      45 * 60,
    );
  });

  it('limits portal e-mails to one address to three an hour', async () => {
    for (let n = 0; n < rateLimitRules.managePerEmail.limit; n++) {
      expect(
        (await postJson(t, '/account/v1/manage', { emailAddress: 'victim@example.com' })).status,
      ).toBe(204);
    }
    await expectLimited(
      await postJson(t, '/account/v1/manage', { emailAddress: 'Victim+x@example.com' }),
      45 * 60,
    );
    expect(await outboxRows(t)).toHaveLength(3);
  });

  it('keeps counters as keyed hashes in the database and sweeps ended windows', async () => {
    await postJson(t, '/api/submitContactForm', contact('hash@example.com'), {
      ip: '203.0.113.50',
    });
    const rows = await t.deps.database.db.select().from(rateLimitCounters);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.bucket).not.toContain('203.0.113.50');
      expect(row.bucket).not.toContain('hash@example.com');
      expect(row.expiresAt.toISOString()).toBe('2026-01-15T11:00:00.000Z');
    }
    expect(await sweepRateLimitCounters(t.deps.database.db, new Date('2026-01-15T10:59:59Z'))).toBe(
      0,
    );
    expect(await sweepRateLimitCounters(t.deps.database.db, new Date('2026-01-15T11:00:01Z'))).toBe(
      2,
    );
  });
});

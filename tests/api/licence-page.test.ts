import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { licencePageReleasedSchema, signedInSchema } from '#shared/contracts/licence-page.ts';
import { SIGN_IN_CODE_MIN_ANSWER_MS } from '#server/features/licence-page/licence-page-routes.ts';
import {
  emailOutbox,
  licenceOrgReleases,
  licenceOrgs,
  licencePageSessions,
  licencePageSignIns,
} from '#server/platform/db/schema.ts';
import { readLicencePageOf } from '#server/features/licence-page/read-licence-page.ts';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import { freshIp } from './account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId } from '../support/licensing.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

const CODE = '/account/v1/licence-page/code';
const SIGN_IN = '/account/v1/licence-page/sign-in';
const SIGN_IN_LINK = '/account/v1/licence-page/sign-in-link';
const SIGN_OUT = '/account/v1/licence-page/sign-out';
const RELEASE = '/account/v1/licence-page/release-org';
const VALIDATE = '/account/v1/licenses/validate';
const MINUTE = 60_000;
const errorBody = z.object({ Error: z.string(), message: z.string() });

describe.each(databaseTargets)('the licence page on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-04-01T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp(target, {
      now: start,
      env: { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' },
    });
  });
  afterAll(() => t.close());

  function post(path: string, body: unknown, options: { session?: string; ip?: string } = {}) {
    const csrf = csrfHeaders();
    const csrfCookie = csrf.Cookie ?? '';
    return Promise.resolve(
      t.app.request(path, {
        method: 'POST',
        headers: {
          ...csrf,
          Cookie: options.session
            ? `${csrfCookie}; orgsmith-licences=${options.session}`
            : csrfCookie,
          'Content-Type': 'application/json',
          'X-Forwarded-For': options.ip ?? freshIp(),
        },
        body: JSON.stringify(body),
      }),
    );
  }

  async function sentMail(to: string) {
    const rows = await t.deps.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, 'licence-page-sign-in')));
    return rows;
  }

  /** Requests a code and reads code and link token from the e-mail. */
  async function codeFor(address: string) {
    const before = (await sentMail(address)).length;
    expect((await post(CODE, { emailAddress: address })).status).toBe(202);
    const mails = await sentMail(address);
    expect(mails).toHaveLength(before + 1);
    const text = mails.at(-1)?.textBody ?? '';
    const code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    const token = /\/licences\/continue\?token=([\w-]+)/.exec(text)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(token).not.toBe('');
    return { code, token };
  }

  function sessionOf(response: Response): string {
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    return /orgsmith-licences=([^;]+)/.exec(cookie)?.[1] ?? '';
  }

  async function signIn(address: string) {
    const { code } = await codeFor(address);
    const response = await post(SIGN_IN, { emailAddress: address, code });
    expect(response.status).toBe(200);
    signedInSchema.parse(await response.json());
    return sessionOf(response);
  }

  const rowCounts = async () => ({
    signIns: (await t.deps.database.db.select().from(licencePageSignIns)).length,
    sessions: (await t.deps.database.db.select().from(licencePageSessions)).length,
    outbox: (await t.deps.database.db.select().from(emailOutbox)).length,
  });

  it('answers an unknown address exactly as a known one, no sooner, and mails only the known', async () => {
    t.setNow(start);
    const { licence } = await createLicence(t);
    const before = await rowCounts();
    const began = performance.now();
    const unknown = await post(CODE, { emailAddress: 'nobody-here@example.com' });
    expect(performance.now() - began).toBeGreaterThanOrEqual(SIGN_IN_CODE_MIN_ANSWER_MS - 5);
    expect(unknown.status).toBe(202);
    expect(await unknown.text()).toBe('');
    expect(await rowCounts()).toEqual(before);
    const known = await post(CODE, { emailAddress: licence.email.toUpperCase() });
    expect(known.status).toBe(202);
    expect(await known.text()).toBe('');
    expect(known.headers.get('cache-control')).toBe('no-store');
    // Sent to the licence's own spelling, with the code and the link; only hashes stored.
    const [mail] = await sentMail(licence.email);
    expect(mail?.subject).toMatch(/sign-in code: \d{6}$/);
    const [row] = await t.deps.database.db.select().from(licencePageSignIns);
    const code = /\d{6}$/.exec(mail?.subject ?? '')?.[0] ?? '';
    expect(row?.codeHash).not.toContain(code);
  });

  it('signs in once with a code; a used code, and the link of the same e-mail, no longer work', async () => {
    t.setNow(start);
    const { licence } = await createLicence(t);
    const { code, token } = await codeFor(licence.email);
    const first = await post(SIGN_IN, { emailAddress: licence.email, code });
    expect(first.status).toBe(200);
    expect(sessionOf(first)).not.toBe('');
    const again = await post(SIGN_IN, { emailAddress: licence.email, code });
    expect(again.status).toBe(401);
    expect(errorBody.parse(await again.json()).Error).toBe('SignInCodeInvalid');
    expect((await post(SIGN_IN_LINK, { token })).status).toBe(410);
  });

  it('ends a code after five wrong tries, even for the right code', async () => {
    t.setNow(start);
    const { licence } = await createLicence(t);
    const { code } = await codeFor(licence.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let n = 0; n < 5; n++) {
      expect((await post(SIGN_IN, { emailAddress: licence.email, code: wrong })).status).toBe(401);
    }
    const right = await post(SIGN_IN, { emailAddress: licence.email, code });
    expect(right.status).toBe(401);
    expect(right.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a code or link after 15 minutes', async () => {
    t.setNow(start);
    const { licence } = await createLicence(t);
    const { code, token } = await codeFor(licence.email);
    t.setNow(new Date(start.getTime() + 15 * MINUTE));
    expect((await post(SIGN_IN, { emailAddress: licence.email, code })).status).toBe(401);
    expect((await post(SIGN_IN_LINK, { token })).status).toBe(410);
    t.setNow(start);
  });

  it('signs in by the link only with a POST, once', async () => {
    t.setNow(start);
    const { licence } = await createLicence(t);
    const { token } = await codeFor(licence.email);
    // Opening the link (a GET of the page) changes nothing: the page only offers "Continue".
    const opened = await t.app.request(`/account/v1/licence-page/sign-in-link?token=${token}`);
    expect(opened.status).not.toBe(200);
    const first = await post(SIGN_IN_LINK, { token });
    expect(first.status).toBe(200);
    expect(sessionOf(first)).not.toBe('');
    const second = await post(SIGN_IN_LINK, { token });
    expect(second.status).toBe(410);
    expect(errorBody.parse(await second.json()).Error).toBe('SignInLinkInvalid');
  });

  it('releases an org of your own licence; another address’s licence is unknown; refusals change nothing', async () => {
    t.setNow(start);
    const mine = await createLicence(t, { quantity: 4 });
    const theirs = await createLicence(t, { quantity: 4 });
    for (const { key } of [mine, theirs]) {
      for (let n = 1; n <= 4; n++) {
        const response = await t.app.request(VALIDATE, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ licenseKey: key, productId: 'orgsmith-cli', orgId: orgId(n) }),
        });
        expect(response.status).toBe(200);
      }
    }
    const session = await signIn(mine.licence.email);
    const slots = async () => (await t.deps.database.db.select().from(licenceOrgs)).length;
    const releases = async () =>
      (await t.deps.database.db.select().from(licenceOrgReleases)).length;
    const before = { slots: await slots(), releases: await releases() };

    // Not signed in, another's licence, an org not in use: refused, nothing changes.
    const anonymous = await post(RELEASE, { licenceId: mine.licence.id, orgId: orgId(1) });
    expect(anonymous.status).toBe(401);
    const other = await post(
      RELEASE,
      { licenceId: theirs.licence.id, orgId: orgId(1) },
      { session },
    );
    expect(other.status).toBe(404);
    expect(errorBody.parse(await other.json()).Error).toBe('LicenceNotFound');
    const idle = await post(RELEASE, { licenceId: mine.licence.id, orgId: orgId(9) }, { session });
    expect(idle.status).toBe(404);
    const bad = await post(RELEASE, { licenceId: 'nope', orgId: orgId(1) }, { session });
    expect(bad.status).toBe(400);
    expect({ slots: await slots(), releases: await releases() }).toEqual(before);

    for (const [n, left] of [
      [1, 2],
      [2, 1],
      [3, 0],
    ] as const) {
      const response = await post(
        RELEASE,
        { licenceId: mine.licence.id, orgId: orgId(n) },
        { session },
      );
      expect(response.status).toBe(200);
      expect(licencePageReleasedSchema.parse(await response.json()).releasesLeft).toBe(left);
    }
    const fourth = await post(
      RELEASE,
      { licenceId: mine.licence.id, orgId: orgId(4) },
      { session },
    );
    expect(fourth.status).toBe(409);
    expect(errorBody.parse(await fourth.json()).message).toMatch(/write to \S+@/);
    expect(await releases()).toBe(before.releases + 3);

    // Audited as the customer (decision 224).
    const events = (
      await createAuditLogRepository(t.deps.database.db).ofTarget('licence', mine.licence.id)
    ).filter((event) => event.action === 'licence.org_released');
    expect(events).toHaveLength(3);
    expect(events.every((event) => event.actor === 'customer')).toBe(true);
    expect(events[0]?.details?.actor).toBe(`customer:${mine.licence.emailNormalized}`);

    // The page's reading: only the address's own licence, its orgs, and no key.
    const reading = await readLicencePageOf(t.deps)(`orgsmith-licences=${session}`);
    if (!reading.signedIn) throw new Error('not signed in');
    expect(reading.view.licences.map((licence) => licence.id)).toEqual([mine.licence.id]);
    const [shown] = reading.view.licences;
    expect(shown?.maskedKey).toBe(`ORGS-…-${mine.key.slice(-4)}`);
    expect(JSON.stringify(reading)).not.toContain(mine.key);
    expect(JSON.stringify(reading)).not.toContain(theirs.licence.email);
    expect(shown?.orgs.filter((org) => org.inUse).map((org) => org.orgId)).toEqual([
      expect.stringMatching(/^00D5g0000000004/),
    ]);
    expect(await readLicencePageOf(t.deps)('orgsmith-licences=forged')).toEqual({
      signedIn: false,
    });
  });

  it('ends the session after an hour, and at sign-out', async () => {
    t.setNow(start);
    const { licence } = await createLicence(t);
    const body = { licenceId: licence.id, orgId: orgId(7) };
    const session = await signIn(licence.email);
    // Signed in: the org is not in use (404), not "sign in" (401).
    expect((await post(RELEASE, body, { session })).status).toBe(404);
    t.setNow(new Date(start.getTime() + 60 * MINUTE));
    expect((await post(RELEASE, body, { session })).status).toBe(401);
    t.setNow(start);
    const second = await signIn(licence.email);
    const out = await post(SIGN_OUT, {}, { session: second });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/orgsmith-licences=;.*Max-Age=0/i);
    expect((await post(RELEASE, body, { session: second })).status).toBe(401);
  });

  it('rate-limits codes per address and sign-in tries per client', async () => {
    t.setNow(start);
    const { licence } = await createLicence(t);
    for (let n = 0; n < 5; n++) {
      expect((await post(CODE, { emailAddress: licence.email })).status).toBe(202);
    }
    expect((await post(CODE, { emailAddress: licence.email })).status).toBe(429);
    const ip = freshIp();
    let last = 0;
    for (let n = 0; n < 31; n++) {
      last = (await post(SIGN_IN, { emailAddress: `x${n}@example.com`, code: '123456' }, { ip }))
        .status;
    }
    expect(last).toBe(429);
  });
});

import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  changeRequestViewSchema,
  licencePageCreatedTokenSchema,
  licencePageReplacedKeySchema,
} from '#shared/contracts/licence-page.ts';
import { siteConfig } from '#shared/site-config.ts';
import { readLicencePageOf } from '#server/features/licence-page/read-licence-page.ts';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import {
  accessTokens,
  customerViews,
  emailOutbox,
  subscriptionChangeRequests,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { freshIp } from './account-support.ts';
import { signedInOperator } from '../support/console-operator.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId } from '../support/licensing.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

const CODE = '/account/v1/licence-page/code';
const SIGN_IN = '/account/v1/licence-page/sign-in';
const REPLACE_KEY = '/account/v1/licence-page/replace-key';
const CREATE_TOKEN = '/account/v1/licence-page/create-token';
const REVOKE_TOKEN = '/account/v1/licence-page/revoke-token';
const CHANGE = '/account/v1/licence-page/change-request';
const VALIDATE = '/account/v1/licenses/validate';
const MINUTE = 60_000;
const errorBody = z.object({ Error: z.string(), message: z.string() });

describe.each(databaseTargets)(
  'the licence page’s keys, tokens, changes and views on $name',
  (target) => {
    let t: TestApp;
    const start = new Date('2026-04-01T10:00:00Z');
    beforeAll(async () => {
      t = await createTestApp(target, {
        now: start,
        env: { LICENSE_VALIDATION_CACHE_SECONDS: '0', LICENSE_VALIDATION_RATE_LIMIT: '0' },
      });
    });
    afterAll(() => t.close());

    function post(path: string, body: unknown, options: { session?: string } = {}) {
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
            'X-Forwarded-For': freshIp(),
          },
          body: JSON.stringify(body),
        }),
      );
    }

    async function mails(to: string, kind: string) {
      return t.deps.database.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, kind)));
    }

    async function signIn(address: string): Promise<string> {
      expect((await post(CODE, { emailAddress: address })).status).toBe(202);
      const mail = (await mails(address, 'licence-page-sign-in')).at(-1);
      const code = /\b(\d{6})\b/.exec(mail?.textBody ?? '')?.[1] ?? '';
      const response = await post(SIGN_IN, { emailAddress: address, code });
      expect(response.status).toBe(200);
      return /orgsmith-licences=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';
    }

    /** What validation answers for a key, or an access token (a bearer token). */
    async function validate(keyOrToken: string) {
      const byToken = keyOrToken.startsWith('orgsmith_at_');
      const response = await t.app.request(VALIDATE, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(byToken ? { Authorization: `Bearer ${keyOrToken}` } : {}),
        },
        body: JSON.stringify({
          ...(byToken ? {} : { licenseKey: keyOrToken }),
          productId: siteConfig.productId,
          orgId: orgId(1),
        }),
      });
      const body: unknown = await response.json();
      const parsed = z.object({ code: z.string() }).safeParse(body);
      if (!parsed.success) throw new Error(`validation answered ${JSON.stringify(body)}`);
      return parsed.data.code;
    }

    /** A target's audit events, oldest first. */
    async function eventsOf(targetType: string, targetId: string) {
      return (
        await createAuditLogRepository(t.deps.database.db).ofTarget(targetType, targetId)
      ).reverse();
    }

    async function viewOf(session: string) {
      const reading = await readLicencePageOf(t.deps)(`orgsmith-licences=${session}`);
      if (!reading.signedIn) throw new Error('not signed in');
      return reading.view;
    }

    it('creates, lists and revokes tokens; replaces the key keeping the named ones; another address’s ids are unknown', async () => {
      t.setNow(start);
      const mine = await createLicence(t);
      const theirs = await createLicence(t);
      const session = await signIn(mine.licence.email);

      const created = [];
      for (const name of ['GitHub Actions', 'Jenkins']) {
        const response = await post(
          CREATE_TOKEN,
          { licenceId: mine.licence.id, name },
          { session },
        );
        expect(response.status).toBe(201);
        created.push(licencePageCreatedTokenSchema.parse(await response.json()));
      }
      const [github, jenkins] = created;
      if (!github || !jenkins) throw new Error('no tokens');
      expect(github.token).toMatch(/^orgsmith_at_/);
      expect(await validate(github.token)).toBe('VALID');
      // The owner hears of each token (decision 212).
      expect(await mails(mine.licence.email, 'access-token-created')).toHaveLength(2);
      // Listed with name, created and last used; the token itself never again.
      const listed = (await viewOf(session)).licences[0]?.tokens ?? [];
      expect(listed.map((token) => token.name)).toEqual(['GitHub Actions', 'Jenkins']);
      expect(listed[0]?.lastUsedAt).not.toBeNull();
      expect(JSON.stringify(listed)).not.toContain(github.token);

      // Another address's licence, another licence's token, bad input: refused, nothing changes.
      const count = async () => (await t.deps.database.db.select().from(accessTokens)).length;
      const before = await count();
      const other = await post(
        CREATE_TOKEN,
        { licenceId: theirs.licence.id, name: 'x' },
        { session },
      );
      expect(other.status).toBe(404);
      expect(errorBody.parse(await other.json()).Error).toBe('LicenceNotFound');
      expect(
        (
          await post(
            REVOKE_TOKEN,
            { licenceId: theirs.licence.id, tokenId: github.id },
            { session },
          )
        ).status,
      ).toBe(404);
      const unknown = await post(
        REVOKE_TOKEN,
        { licenceId: mine.licence.id, tokenId: randomUUID() },
        { session },
      );
      expect(unknown.status).toBe(404);
      expect(errorBody.parse(await unknown.json()).Error).toBe('AccessTokenNotFound');
      expect(
        (await post(CREATE_TOKEN, { licenceId: mine.licence.id, name: '' }, { session })).status,
      ).toBe(400);
      expect(
        (await post(REPLACE_KEY, { licenceId: theirs.licence.id, keepTokenIds: [] }, { session }))
          .status,
      ).toBe(404);
      expect((await post(CREATE_TOKEN, { licenceId: mine.licence.id, name: 'x' })).status).toBe(
        401,
      );
      expect(await count()).toBe(before);
      expect(await validate(theirs.key)).toBe('VALID');

      // Replace the key keeping GitHub Actions: the old key and Jenkins stop, GitHub goes on.
      const replaced = await post(
        REPLACE_KEY,
        { licenceId: mine.licence.id, keepTokenIds: [github.id] },
        { session },
      );
      expect(replaced.status).toBe(200);
      const answer = licencePageReplacedKeySchema.parse(await replaced.json());
      expect(answer).toMatchObject({ endedTokens: 1, keptTokens: 1 });
      expect(answer.maskedKey).toBe(`ORGS-…-${answer.key.slice(-4)}`);
      expect(await validate(mine.key)).not.toBe('VALID');
      expect(await validate(answer.key)).toBe('VALID');
      expect(await validate(github.token)).toBe('VALID');
      expect(await validate(jenkins.token)).not.toBe('VALID');
      const [keyMail] = await mails(mine.licence.email, 'replacement-licence-key');
      expect(keyMail?.textBody).toContain(answer.key);

      // Revoke the kept one.
      const revoked = await post(
        REVOKE_TOKEN,
        { licenceId: mine.licence.id, tokenId: github.id },
        { session },
      );
      expect(revoked.status).toBe(200);
      expect(await validate(github.token)).not.toBe('VALID');
      expect((await viewOf(session)).licences[0]?.tokens).toEqual([]);

      // All as the customer (decision 224).
      const keyEvents = (await eventsOf('licence', mine.licence.id)).filter(
        (event) => event.action === 'licence.key_replaced',
      );
      expect(keyEvents).toHaveLength(1);
      expect(keyEvents[0]?.actor).toBe('customer');
      expect(keyEvents[0]?.details?.actor).toBe(`customer:${mine.licence.emailNormalized}`);
      const tokenEvents = await eventsOf('access_token', github.id);
      expect(tokenEvents.map((event) => event.action)).toEqual([
        'access_token.created',
        'access_token.revoked',
      ]);
      expect(tokenEvents.every((event) => event.actor === 'customer')).toBe(true);
    });

    async function invoiceLicence(collection: 'card' | 'invoice' = 'invoice') {
      const subscriptionId = `sub_${randomUUID()}`;
      const made = await createLicence(t, {
        subscriptionId,
        customerId: 'cus_test',
        subscriptionStatus: 'active',
        expiresAt: null,
      });
      await t.deps.database.db.insert(subscriptions).values({
        provider: 'local',
        subscriptionId,
        licenceId: made.licence.id,
        customerId: 'cus_test',
        status: 'active',
        edition: 'Pro',
        quantity: 4,
        billingPeriod: 'yearly',
        currency: 'EUR',
        collection,
        currentPeriodEnd: new Date(t.deps.clock().getTime() + 300 * 86_400_000),
        cancelAtPeriodEnd: false,
        snapshotReadAt: t.deps.clock(),
      });
      return { ...made, subscriptionId };
    }

    it('stores a change request of an invoice subscription, one open at a time, answered in the console with an e-mail', async () => {
      t.setNow(start);
      const invoiced = await invoiceLicence('invoice');
      const card = await invoiceLicence('card');
      const stranger = await invoiceLicence('invoice');
      const session = await signIn(invoiced.licence.email);
      const cardSession = await signIn(card.licence.email);
      const rows = async () =>
        (await t.deps.database.db.select().from(subscriptionChangeRequests)).length;
      const before = await rows();

      // Refused: a card subscription, another's licence, seats without a number.
      const byCard = await post(
        CHANGE,
        { licenceId: card.licence.id, kind: 'cancel' },
        { session: cardSession },
      );
      expect(byCard.status).toBe(409);
      expect(errorBody.parse(await byCard.json()).Error).toBe('NotPaidByInvoice');
      expect(
        (await post(CHANGE, { licenceId: stranger.licence.id, kind: 'cancel' }, { session }))
          .status,
      ).toBe(404);
      expect(
        (await post(CHANGE, { licenceId: invoiced.licence.id, kind: 'seats' }, { session })).status,
      ).toBe(400);
      expect(
        (
          await post(
            CHANGE,
            { licenceId: invoiced.licence.id, kind: 'plan', edition: 'Gold' },
            { session },
          )
        ).status,
      ).toBe(400);
      expect(await rows()).toBe(before);

      // The page says how each is paid.
      const cardView = await viewOf(cardSession);
      expect(cardView.licences[0]?.billing.collection).toBe('card');

      const asked = await post(
        CHANGE,
        { licenceId: invoiced.licence.id, kind: 'seats', seats: 10, message: 'New team' },
        { session },
      );
      expect(asked.status).toBe(201);
      const request = changeRequestViewSchema.parse(await asked.json());
      expect(request).toMatchObject({ kind: 'seats', seats: 10, status: 'open' });
      const duplicate = await post(
        CHANGE,
        { licenceId: invoiced.licence.id, kind: 'cancel' },
        { session },
      );
      expect(duplicate.status).toBe(409);
      expect(errorBody.parse(await duplicate.json()).Error).toBe('ChangeRequestOpen');
      expect(await rows()).toBe(before + 1);
      const view = await viewOf(session);
      expect(view.licences[0]?.billing).toMatchObject({
        collection: 'invoice',
        changeRequest: { id: request.id, status: 'open' },
      });

      // The console's queue: finance reads it and answers; a viewer may read but not answer.
      const finance = await signedInOperator(t, 'finance');
      const viewer = await signedInOperator(t, 'viewer');
      const queue = await finance.request('change-requests');
      expect(queue.status).toBe(200);
      const listed = z
        .object({ requests: z.array(z.object({ id: z.string(), customer: z.string() })) })
        .parse(await queue.json());
      expect(listed.requests.find((row) => row.id === request.id)?.customer).toBe(
        invoiced.licence.emailNormalized,
      );
      expect(
        (
          await viewer.request(`change-requests/${request.id}/done`, {
            body: { reason: 'Done now' },
          })
        ).status,
      ).toBe(403);
      expect(
        (await finance.request(`change-requests/${request.id}/done`, { body: { reason: '' } }))
          .status,
      ).toBe(400);
      expect(
        (
          await finance.request(`change-requests/${randomUUID()}/done`, {
            body: { reason: 'Done now' },
          })
        ).status,
      ).toBe(404);
      const done = await finance.request(`change-requests/${request.id}/done`, {
        body: { reason: 'Seats raised to 10 from the next invoice' },
      });
      expect(done.status).toBe(200);
      const again = await finance.request(`change-requests/${request.id}/decline`, {
        body: { reason: 'Changed my mind' },
      });
      expect(again.status).toBe(409);
      const [answerMail] = await mails(invoiced.licence.email, 'change-request-answered');
      expect(answerMail?.subject).toMatch(/was changed/);
      expect(answerMail?.textBody).toContain('Seats raised to 10 from the next invoice');
      const events = await eventsOf('change_request', request.id);
      expect(events.map((event) => event.action)).toEqual([
        'change_request.created',
        'change_request.done',
      ]);
      expect(events[0]?.actor).toBe('customer');
      expect(events[1]?.actor).toBe(`operator:${finance.id}`);
      expect(events[1]?.details?.reason).toBe('Seats raised to 10 from the next invoice');

      // Answered, a new request may be made; declining it mails the reason.
      const second = await post(
        CHANGE,
        { licenceId: invoiced.licence.id, kind: 'cancel' },
        { session },
      );
      expect(second.status).toBe(201);
      const secondId = changeRequestViewSchema.parse(await second.json()).id;
      const declined = await finance.request(`change-requests/${secondId}/decline`, {
        body: { reason: 'The contract runs until March' },
      });
      expect(declined.status).toBe(200);
      const declineMail = (await mails(invoiced.licence.email, 'change-request-answered')).at(-1);
      expect(declineMail?.subject).toMatch(/declined/);
      expect(declineMail?.textBody).toContain('The contract runs until March');
    });

    it('lets an operator view a customer’s page read-only for 15 minutes, audited at start and end', async () => {
      t.setNow(start);
      const customer = await createLicence(t);
      const viewer = await signedInOperator(t, 'viewer');
      const other = await signedInOperator(t, 'support');

      // A reason is required; an address without a licence is unknown.
      expect(
        (await viewer.request('view-as', { body: { address: customer.licence.email } })).status,
      ).toBe(400);
      expect(
        (
          await viewer.request('view-as', {
            body: { address: 'nobody-at-all@example.com', reason: 'Ticket 42' },
          })
        ).status,
      ).toBe(404);
      const started = await viewer.request('view-as', {
        body: { address: customer.licence.email.toUpperCase(), reason: 'Ticket 42: orgs' },
      });
      expect(started.status).toBe(201);
      const { id, path } = z
        .object({ id: z.string(), path: z.string() })
        .parse(await started.json());
      expect(path).toBe(`/console/view-as/${id}`);

      const read = await viewer.request(`view-as/${id}`);
      expect(read.status).toBe(200);
      const viewing = z
        .object({
          viewAs: z.object({ address: z.string(), reason: z.string() }),
          view: z.object({ licences: z.array(z.object({ id: z.string() })) }),
        })
        .parse(await read.json());
      expect(viewing.view.licences.map((licence) => licence.id)).toEqual([customer.licence.id]);
      expect(viewing.viewAs.reason).toBe('Ticket 42: orgs');
      // Another operator cannot use it.
      expect((await other.request(`view-as/${id}`)).status).toBe(404);

      // Every write in it is refused, clearly, and changes nothing.
      const tokensBefore = (await t.deps.database.db.select().from(accessTokens)).length;
      for (const action of ['replace-key', 'create-token', 'release-org', 'change-request']) {
        const refused = await viewer.request(`view-as/${id}/actions/${action}`, {
          body: { licenceId: customer.licence.id, name: 'x' },
        });
        expect(refused.status).toBe(403);
        expect(errorBody.parse(await refused.json()).Error).toBe('ViewAsReadOnly');
      }
      expect((await t.deps.database.db.select().from(accessTokens)).length).toBe(tokensBefore);
      expect(await validate(customer.key)).toBe('VALID');

      // Ended by the operator: audited once; the view answers 410 from then on.
      expect((await viewer.request(`view-as/${id}/end`, { method: 'POST' })).status).toBe(204);
      expect((await viewer.request(`view-as/${id}`)).status).toBe(410);
      expect((await viewer.request(`view-as/${id}/end`, { method: 'POST' })).status).toBe(410);
      const events = await eventsOf('customer_view', id);
      expect(events.map((event) => event.action)).toEqual([
        'operator.viewed_as_customer',
        'operator.view_as_customer_ended',
      ]);
      expect(events.every((event) => event.actor === `operator:${viewer.id}`)).toBe(true);
      expect(events[0]?.details?.reason).toBe('Ticket 42: orgs');
      expect(events[1]?.details?.after).toMatchObject({ endKind: 'ended' });

      // Left to expire: the end is noted at the next use, once.
      const second = await viewer.request('view-as', {
        body: { address: customer.licence.email, reason: 'Ticket 43' },
      });
      const secondId = z.object({ id: z.string() }).parse(await second.json()).id;
      t.setNow(new Date(start.getTime() + 15 * MINUTE));
      expect((await viewer.request(`view-as/${secondId}`)).status).toBe(410);
      expect(
        (await viewer.request(`view-as/${secondId}/actions/create-token`, { body: {} })).status,
      ).toBe(410);
      const ended = (await eventsOf('customer_view', secondId)).map((event) => event.action);
      expect(ended).toEqual(['operator.viewed_as_customer', 'operator.view_as_customer_ended']);
      const [row] = await t.deps.database.db
        .select()
        .from(customerViews)
        .where(eq(customerViews.id, secondId));
      expect(row?.endKind).toBe('expired');
      t.setNow(start);
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { requestTrial } from './account-support.ts';
import {
  cancelUrl,
  createCheckout,
  mailsTo,
  payLocally,
  successCard,
  successUrl,
} from './checkout-support.ts';

const ACCOUNT_HOST = 'https://account.orgsmith.test';

/**
 * With the account service on its own host (ACCOUNT_API_URL), every e-mail that carries a
 * licence key shows the access-token `curl` example against that host, not the site.
 */
describe.each(databaseTargets)(
  'licence e-mails with a separate account host on $name',
  (target) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target, { env: { ACCOUNT_API_URL: ACCOUNT_HOST } });
    });
    afterAll(() => t.close());

    async function keyMail(to: string, kind: string) {
      const mail = (await mailsTo(t, to)).find((row) => row.kind === kind);
      if (!mail?.textBody || !mail.htmlBody) throw new Error(`no ${kind} e-mail to ${to}`);
      return mail;
    }

    function expectAccountHost(mail: { textBody: string | null; htmlBody: string | null }) {
      const curl = `curl -X POST ${ACCOUNT_HOST}/account/v1/access-tokens`;
      expect(mail.textBody).toContain(curl);
      expect(mail.htmlBody).toContain(curl);
      expect(mail.textBody).not.toContain(`${t.deps.env.PUBLIC_BASE_URL}/account/v1/`);
    }

    it.each<[string, CheckoutRequestInput['edition'], number]>([
      ['pro@acme.test', 'Pro', 6],
      ['starter@acme.test', 'Starter', 3],
    ])('in the licence-key e-mail of a purchase (%s)', async (email, edition, quantity) => {
      const { sessionId } = await createCheckout(t, {
        edition,
        quantity,
        billingPeriod: 'monthly',
        billingCurrency: 'USD',
        successUrl,
        cancelUrl,
      });
      const paid = await payLocally(t, sessionId, {
        email,
        ...(edition === 'Starter' ? {} : { card: successCard }),
      });
      expect(paid.status).toBe(303);
      expectAccountHost(await keyMail(email, 'licence-key'));
    });

    it('in the trial licence e-mail', async () => {
      const res = await requestTrial(t, {
        emailAddress: 'trial@acme.test',
        productId: 'orgsmith-cli',
      });
      expect(res.status).toBe(204);
      const [mail] = await mailsTo(t, 'trial@acme.test');
      if (!mail) throw new Error('no trial e-mail');
      expectAccountHost(mail);
    });
  },
);

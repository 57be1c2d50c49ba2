import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect as baseExpect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { enrolOperator } from './support/console.ts';
import {
  orderByInvoice,
  requestSeats,
  signInToLicences,
  trialKey,
} from './support/licence-page.ts';

/**
 * The console's side of the licence page (decision 236) in Chromium, with passkeys on the virtual
 * authenticator: a customer paying by invoice asks for more seats on the licence page; finance
 * finds the request on the Change requests page, cannot answer it without a reason, marks it done
 * with one, and the customer is e-mailed and sees the answer; a viewer sees the queue without a
 * form. Support opens a customer's story and views their licence page as the customer, with a
 * reason. At 1280 and 390 px, axe on every state.
 */
// An invoice order, passkey ceremonies and axe runs on a busy two-core machine.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

let sink: SmtpSink;
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

const run = Date.now().toString(36);

const rowOf = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });

for (const width of [1280, 390]) {
  test(`finance answers a customer's change request on the queue page at ${width} px`, async ({
    page,
    browser,
    e2eServer,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const address = `queue-${width}-${run}@example.com`;
    await orderByInvoice(page, sink, address, `Queue ${width} GmbH`);
    await signInToLicences(page, sink, address);
    await requestSeats(page, 15, `Fifteen seats from March (${width})`);

    // A viewer reads the queue but has nothing to answer with.
    const viewerContext = await browser.newContext({ viewport: { width, height: 900 } });
    const viewer = await viewerContext.newPage();
    await enrolOperator(viewer, e2eServer, `viewer-cr-${width}-${run}@orgsmith.test`, 'viewer');
    await viewer.getByRole('link', { name: 'Change requests' }).click();
    await expect(viewer.getByRole('heading', { level: 1, name: 'Change requests' })).toBeVisible();
    await expect(rowOf(viewer, address)).toContainText('Seats: 15');
    await expect(rowOf(viewer, address).getByRole('button')).toHaveCount(0);
    await expect(viewer.getByRole('textbox')).toHaveCount(0);
    await expect(viewer.getByRole('columnheader', { name: 'Answer' })).toHaveCount(0);
    await expectNoAxeViolations(viewer, `change requests as a viewer at ${width}`);
    await viewerContext.close();

    // Finance: the request with its form.
    const financeContext = await browser.newContext({ viewport: { width, height: 900 } });
    const finance = await financeContext.newPage();
    await enrolOperator(finance, e2eServer, `finance-cr-${width}-${run}@orgsmith.test`, 'finance');
    await finance.getByRole('link', { name: 'Change requests' }).click();
    const row = rowOf(finance, address);
    await expect(row).toContainText('Seats: 15');
    await expect(row).toContainText(`Fifteen seats from March (${width})`);
    await expect(row).toContainText('Enterprise');
    await expectNoAxeViolations(finance, `change requests as finance at ${width}`);

    // No reason: the browser refuses the form and nothing is sent.
    await row.getByRole('button', { name: `Decline for ${address}` }).click();
    const reason = row.getByRole('textbox', { name: `Reason for ${address} (Seats: 15)` });
    await expect(reason).toHaveJSProperty('validity.valueMissing', true);
    await finance.reload();
    await expect(rowOf(finance, address)).toBeVisible();

    // Done, with the reason the customer reads.
    await rowOf(finance, address)
      .getByRole('textbox', { name: `Reason for ${address} (Seats: 15)` })
      .fill('Raised to 15 seats from the next invoice');
    await rowOf(finance, address)
      .getByRole('button', { name: `Done for ${address}` })
      .click();
    await expect(finance.getByRole('status').filter({ hasText: address })).toContainText(
      'is done; they were e-mailed the reason',
    );
    await expect(rowOf(finance, address)).toHaveCount(0);
    await expectNoAxeViolations(finance, `change request answered at ${width}`);
    await financeContext.close();

    const mail = await sink.waitForMail({ to: address, subject: /subscription was changed/ });
    expect(mail.text).toContain('Raised to 15 seats from the next invoice');
    await page.reload();
    const billing = page.getByRole('region', { name: 'Billing' });
    await expect(billing).toContainText('done — Raised to 15 seats from the next invoice');
    await expect(billing.getByRole('group', { name: 'Request a change' })).toBeVisible();
  });

  test(`support views a customer's licence page from the story, with a reason, at ${width} px`, async ({
    page,
    browser,
    e2eServer,
  }) => {
    const address = `viewed-${width}-${run}@example.com`;
    await trialKey(page, sink, address);

    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const support = await context.newPage();
    await enrolOperator(support, e2eServer, `support-va-${width}-${run}@orgsmith.test`, 'support');
    await support.goto(
      `${e2eServer.consoleURL}/console/customer?${new URLSearchParams({ address }).toString()}`,
    );
    await expect(support.getByRole('heading', { level: 1, name: address })).toBeVisible();
    await support.getByRole('button', { name: 'View as customer…' }).click();
    const reason = support.getByLabel(`Why you look at ${address}’s licence page`);
    await expect(reason).toBeVisible();
    await expectNoAxeViolations(support, `view as customer asks a reason at ${width}`);

    // No reason: nothing starts.
    await support.getByRole('button', { name: 'Start the view' }).click();
    await expect(reason).toHaveJSProperty('validity.valueMissing', true);
    await expect(support).toHaveURL(/\/console\/customer\?/);

    await reason.fill(`Ticket ${width}: the customer cannot find their key`);
    await support.getByRole('button', { name: 'Start the view' }).click();
    await expect(support).toHaveURL(/\/console\/view-as\/[0-9a-f-]{36}$/);
    const banner = support.getByRole('status').filter({ hasText: 'Read-only view' });
    await expect(banner).toContainText(`Read-only view as ${address}`);
    await expect(banner).toContainText(`Ticket ${width}: the customer cannot find their key`);
    await expect(support.getByRole('heading', { level: 2, name: 'Licences' })).toBeVisible();
    await expectNoAxeViolations(support, `view as customer at ${width}`);
    await context.close();
  });
}

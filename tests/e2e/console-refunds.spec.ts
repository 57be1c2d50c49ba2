import { expectNoAxeViolations } from './support/axe.ts';
import { germanBuyer, openPlanCheckout } from './support/checkout-dialog.ts';
import { enrolOperator } from './support/console.ts';
import { expect, test } from './support/test.ts';

/**
 * Refunds and documents in the console (decision 233), in Chromium with passkeys on the virtual
 * authenticator: a card purchase's receipt is found on the Documents page, finance refunds part of
 * it at once (the preview first), asks for the rest (above REFUND_APPROVAL_ABOVE, so it waits),
 * cannot approve their own, and a second finance operator approves it; a viewer sees neither the
 * form nor the approval buttons. Axe on every page.
 */
// A purchase, three passkey ceremonies, two admin processes and five axe runs on a busy machine.
test.describe.configure({ timeout: 300_000 });

const run = Date.now().toString(36);

test('finance refunds a receipt from the console; above the threshold a second operator approves', async ({
  page,
  browser,
  e2eServer,
}) => {
  const company = `Refund Test ${run} GmbH`;
  await openPlanCheckout(page, 'size=10&period=yearly&currency=EUR', 'Buy Pro', {
    ...germanBuyer,
    company,
  });
  await page.getByLabel('Email address').fill(`buyer-${run}@example.com`);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/checkout-success\?session_id=lcs_/);

  // Finance A finds the receipt on the Documents page.
  await enrolOperator(page, e2eServer, `finance-a-${run}@orgsmith.test`, 'finance');
  await page.getByRole('link', { name: 'Documents' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Documents' })).toBeVisible();
  const receiptRow = page.getByRole('row').filter({ hasText: company });
  await expect(receiptRow).toContainText('Receipt');
  await expect(receiptRow).toContainText('paid');
  const receipt = ((await receiptRow.getByRole('link').textContent()) ?? '').replace(' (PDF)', '');
  expect(receipt).toMatch(/^INV-\d{4}-\d{5}$/);
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
    'href',
    /\/console\/api\/documents\/books\.csv\?month=\d{4}-\d{2}$/,
  );
  await expectNoAxeViolations(page, 'documents');

  // Part of it, below the threshold: the preview, then refunded at once.
  await page.getByRole('link', { name: 'Refunds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible();
  await page.getByLabel('Invoice or receipt').fill(receipt);
  await page.getByLabel('Amount (gross)').fill('50.00');
  await page.getByLabel('Reason (printed on the credit note)').fill('Goodwill for an outage');
  await page.getByRole('button', { name: 'Check the refund' }).click();
  const preview = page.getByTestId('refund-preview');
  await expect(preview).toContainText(`€50.00 of ${receipt}`);
  await expect(preview).toContainText('stays as it is');
  await expect(preview).toContainText('None needed');
  await expectNoAxeViolations(page, 'refund preview');
  await page.getByRole('button', { name: 'Refund now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Refunded €50.00' })).toContainText(
    /credit note CN-\d{4}-\d{5}/,
  );
  await expect(page.getByRole('row').filter({ hasText: 'refunded' }).first()).toContainText(
    receipt,
  );

  // The rest waits for a second operator; the requester cannot approve it.
  await page.getByLabel('Invoice or receipt').fill(receipt);
  await page.getByLabel('Reason (printed on the credit note)').fill('Contract cancelled');
  await page.getByRole('button', { name: 'Check the refund' }).click();
  await expect(preview).toContainText('end at once');
  await expect(preview).toContainText('a second operator approves it');
  await page.getByRole('button', { name: 'Ask for approval' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'waits for a second operator' }),
  ).toBeVisible();
  const waiting = page
    .getByRole('table', { name: 'Refunds waiting for approval' })
    .getByRole('row')
    .filter({ hasText: receipt });
  await expect(waiting).toContainText('Yours: another operator approves it');
  await expect(waiting.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await expectNoAxeViolations(page, 'refunds with a request waiting');

  // A viewer sees the lists, not the form or the buttons.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await enrolOperator(viewer, e2eServer, `viewer-${run}@orgsmith.test`, 'viewer');
  await viewer.goto(`${e2eServer.consoleURL}/console/refunds`);
  await expect(
    viewer.getByRole('heading', { level: 2, name: 'Waiting for approval' }),
  ).toBeVisible();
  await expect(viewer.getByRole('heading', { name: 'Refund a payment' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await expectNoAxeViolations(viewer, 'refunds as a viewer');
  await viewerContext.close();

  // Finance B approves it: the rest is refunded and the licence ends.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await enrolOperator(other, e2eServer, `finance-b-${run}@orgsmith.test`, 'finance');
  await other.goto(`${e2eServer.consoleURL}/console/refunds`);
  await other
    .getByRole('table', { name: 'Refunds waiting for approval' })
    .getByRole('row')
    .filter({ hasText: receipt })
    .getByRole('button', { name: `Approve the refund of ${receipt}` })
    .click();
  await expect(other.getByRole('status').filter({ hasText: `Refunded` })).toContainText(receipt);
  await expect(
    other
      .getByRole('table', { name: 'Recent refunds from the console' })
      .getByRole('row')
      .filter({ hasText: `finance-b-${run}@orgsmith.test` }),
  ).toContainText('refunded');
  await expectNoAxeViolations(other, 'refunds after approval');
  await otherContext.close();
});

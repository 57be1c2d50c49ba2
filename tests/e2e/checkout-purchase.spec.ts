import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { parseLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { cardDeclinedAtCheckout } from '#server/billing/payments/local/local-routes.ts';
import { licenceHolderMessages } from '#shared/contracts/licence-holder.ts';
import { portalLinkNotices } from '#shared/contracts/messages.ts';
import { waitForHydration } from './support/shell.ts';
import {
  fillCheckoutDialog,
  germanBuyer,
  openCheckoutDialog,
  openPlanCheckout,
} from './support/checkout-dialog.ts';

let sink: SmtpSink;
/** The worker's sink, where its server sends every e-mail. */
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

/** Unique per run: licences and trials are per address and the e-2e database lives on. */
const run = Date.now().toString(36);
const keyPattern = /ORGS(?:-[0-9A-Z]{4}){7}/;

async function payWithCard(page: Page, email: string, cardNumber: string) {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
}

const portalLinkPattern = /http:\/\/localhost:\d+\/billing-portal\?token=\S+/;

/** Follows an e-mailed billing-portal link: its landing page, then its button (decision 123). */
async function followPortalLink(page: Page, link: string) {
  await page.goto(link);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Open the billing portal' }).click();
  await expect(page).toHaveURL(/\/billing\/local\/portal\/lps_/);
}

/** Asks for the billing-portal e-mail in the dialog and follows its link to the local portal. */
async function openBillingPortal(page: Page, email: string) {
  await page.goto('/?modal=portal-access');
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address', { exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Send' }).click();
  const portalMail = await sink.waitForMail({ to: email, subject: /billing portal/ });
  const link = portalLinkPattern.exec(portalMail.text)?.[0];
  expect(link).toBeDefined();
  await followPortalLink(page, link ?? '');
}

test('buys Pro, 10 orgs, yearly, EUR through the local provider; the key arrives by e-mail', async ({
  page,
}) => {
  const email = `buyer-${run}@example.com`;
  await openPlanCheckout(page, 'size=10&period=yearly&currency=EUR', 'Buy Pro');

  await expect(page.getByText('TEST MODE')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Complete your order');
  const order = page.getByRole('region', { name: 'Your order' });
  await expect(order).toContainText('Orgsmith Pro · 10 orgs · billed yearly in EUR');
  await expect(order).toContainText('6 additional orgs × €1,350');
  // Net from the pricing engine; no billing address asked, so German VAT, as the receipt says.
  await expect(order).toContainText('Net€13,046');
  await expect(order).toContainText('VAT 19 %€2,478.74');
  await expect(order).toContainText('€15,524.74 per year');
  await expectNoAxeViolations(page, page.url());

  await payWithCard(page, email, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay €15,524.74' }).click();

  await expect(page).toHaveURL(/\/checkout-success\?session_id=lcs_/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout Successful');
  await expect(page.getByRole('status')).toContainText(
    `Your Orgsmith Pro (10 orgs) licence key is on its way to ${email}.`,
  );
  // A new key: nothing about keeping a key the buyer never had.
  await expect(page.getByRole('main')).not.toContainText('same licence key');
  await expectNoAxeViolations(page, page.url());

  const mail = await sink.waitForMail({ to: email });
  expect(mail.subject).toBe('Your Orgsmith Pro licence key');
  const key = keyPattern.exec(mail.text)?.[0] ?? '';
  expect(parseLicenceKey(key)).toEqual({ ok: true, key });
  expect(mail.text).toContain('Orgsmith Pro, 10 orgs');
  expect(mail.text).toContain(`Licence e-mail address: ${email}`);
});

test('a licence holder named in the dialog gets the key; the paying address gets a note (decision 223)', async ({
  page,
}) => {
  const payer = `ap-${run}@example.com`;
  const holder = `dev-${run}@example.com`;
  const dialog = await openCheckoutDialog(page, 'size=10&period=yearly&currency=EUR', 'Buy Pro');
  await fillCheckoutDialog(dialog, germanBuyer);
  const field = dialog.getByLabel('Licence holder e-mail (optional)');
  await expect(dialog.getByText('Who receives the licence key.')).toBeVisible();
  await field.fill('dev@');
  await expect(dialog.getByText(licenceHolderMessages.invalid)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Continue to payment' })).toBeDisabled();
  await field.fill(holder);
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(/\/billing\/local\/checkout\/lcs_/);
  await payWithCard(page, payer, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay €15,524.74' }).click();
  await expect(page.getByRole('status')).toContainText(`licence key is on its way to ${holder}.`);

  const keyMail = await sink.waitForMail({ to: holder, subject: /licence key$/ });
  expect(keyMail.text).toMatch(keyPattern);
  expect(keyMail.text).toContain(`Muster Software GmbH (${payer}) bought this licence for you`);
  const note = await sink.waitForMail({ to: payer, subject: /licence key went to/ });
  expect(note.text).not.toMatch(keyPattern);
  expect(note.text).toContain(`Licence holder: ${holder}`);
});

test('cancelling the checkout returns to the pricing page with the selection intact', async ({
  page,
}) => {
  await openPlanCheckout(page, 'size=12&period=yearly&currency=EUR', 'Buy Pro');
  await page.getByRole('link', { name: '← Back to pricing' }).click();
  await expect(page).toHaveURL(/\/pricing\?size=12&period=yearly&currency=EUR$/);
  await expect(page.getByRole('slider')).toHaveValue('12');
});

test('the decline card shows the decline alone and keeps what was typed', async ({ page }) => {
  const email = `declined-${run}@example.com`;
  await openPlanCheckout(page, 'size=25&period=monthly&currency=USD', 'Buy Enterprise');
  await payWithCard(page, email, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay $4,165.00' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(cardDeclinedAtCheckout.title);
  await expect(alert).toContainText(cardDeclinedAtCheckout.message);
  await expect(alert).not.toContainText('Something went wrong');
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await expect(page.getByLabel('Card number')).toHaveValue('4000 0000 0000 0002');
  await expectNoAxeViolations(page, page.url());

  // The same page then takes the success card.
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $4,165.00' }).click();
  await expect(page).toHaveURL(/\/checkout-success/);
  await expect(page.getByRole('status')).toContainText('Orgsmith Enterprise licence key');
});

test('converting a trial by its key keeps the key', async ({ page }) => {
  const email = `convert-${run}@example.com`;
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(email);
  await dialog.locator('button[type=submit]').click();
  const trialMail = await sink.waitForMail({ to: email });
  const key = keyPattern.exec(trialMail.text)?.[0] ?? '';
  expect(key).not.toBe('');

  await openPlanCheckout(page, 'size=6&period=monthly&currency=USD', 'Buy Pro', germanBuyer, key);
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await expect(page.getByLabel('Email address')).toHaveAttribute('readonly', '');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();

  await expect(page.getByRole('status')).toContainText(
    'Your trial is now Orgsmith Pro (6 orgs). Keep using the same licence key',
  );
  // The same key: the page promises no new one.
  const main = page.getByRole('main');
  await expect(main).toContainText('Your key does not change');
  await expect(main).not.toContainText('licence key is on its way');
  const converted = await sink.waitForMail({ to: email, subject: /trial is now/ });
  expect(converted.text).toContain(`ends in ${key.slice(-4)}`);
  expect(converted.text).not.toMatch(keyPattern);
  expect(sink.mailsFor({ to: email, subject: 'Your Orgsmith Pro licence key' })).toEqual([]);

  // The same key cannot be converted twice.
  const again = await openCheckoutDialog(page, 'size=6&period=monthly&currency=USD', 'Buy Pro');
  await fillCheckoutDialog(again, germanBuyer, key);
  await again.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(again.getByRole('alert')).toHaveText(
    'This license key is already associated with a subscription.',
  );
});

test('an unknown trial key shows the LicenseKeyUnknown text', async ({ page }) => {
  const dialog = await openCheckoutDialog(page, 'size=4&period=monthly&currency=USD', 'Buy Pro');
  await fillCheckoutDialog(dialog, germanBuyer, 'ORGS-NOT-A-KEY');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('This license key was not recognized.');
  await expect(dialog.getByLabel('Trial licence key (optional)')).toHaveValue('ORGS-NOT-A-KEY');
});

test('Starter: a free licence without a card, managed in the billing portal', async ({ page }) => {
  const email = `starter-${run}@example.com`;
  await openPlanCheckout(page, 'size=3&period=monthly&currency=USD', 'Get Starter free', {
    company: 'Tiny Team Ltd',
  });
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Get my free licence' }).click();
  await expect(page.getByRole('status')).toContainText(
    'Orgsmith Starter licence key is on its way',
  );
  await sink.waitForMail({ to: email, subject: 'Your Orgsmith Starter licence key' });

  // Manage it: the portal link comes by e-mail (account service), then the local portal.
  await openBillingPortal(page, email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Billing portal');
  await expect(page.getByText('TEST MODE')).toBeVisible();
  await expectNoAxeViolations(page, page.url());

  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByRole('status')).toHaveText('Your subscription was cancelled.');
  const cancelled = await sink.waitForMail({ to: email, subject: /is cancelled/ });
  expect(cancelled.text).toContain('the licence key no longer works');
});

test('billing portal: switch monthly to yearly with a proration preview; no currency switch; tampered values refused', async ({
  page,
}) => {
  // Two payments, each with its receipt PDF drawn (decision 180), and three portal round trips.
  test.setTimeout(60_000);
  const email = `period-${run}@example.com`;
  await openPlanCheckout(page, 'size=5&period=monthly&currency=USD', 'Buy Pro');
  await payWithCard(page, email, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $749.70' }).click();
  await expect(page).toHaveURL(/\/checkout-success/);
  await sink.waitForMail({ to: email, subject: 'Your Orgsmith Pro licence key' });

  await openBillingPortal(page, email);
  const subscription = page.getByRole('region', { name: 'Orgsmith Pro, 5 orgs' });
  await expect(subscription.getByText('Monthly, USD')).toBeVisible();
  await expect(subscription).toContainText(
    'Billed in USD. A subscription keeps the currency it was bought in.',
  );
  const portalUrl = page.url();

  // A tampered preview link is answered with a message, not a preview.
  const subscriptionId = await subscription.locator('input[name=change]').inputValue();
  await page.goto(
    `${portalUrl}?change=${subscriptionId}&edition=Pro&quantity=5&billingPeriod=weekly`,
  );
  await expect(page.getByRole('alert')).toHaveText('Choose monthly or yearly billing.');
  await expect(page.getByRole('button', { name: 'Confirm change' })).toHaveCount(0);

  await page.goto(portalUrl);
  await subscription.getByLabel('Billing period').selectOption('yearly');
  await subscription.getByRole('button', { name: 'Preview change' }).click();
  const preview = page.getByRole('status');
  await expect(preview).toContainText('Preview: Orgsmith Pro, 5 orgs, billed yearly');
  await expect(preview).toContainText('A new year on the new plan, from today');
  // 5 orgs: 6,804 USD a year (12 × 630 × 0.9), charged with German VAT as the receipt is.
  await expect(preview).toContainText('$8,096.76 per year ($6,804.00 plus VAT 19 %)');
  await expect(preview).toContainText('Your new billing period starts today.');
  await expectNoAxeViolations(page, page.url());

  // A confirm form whose currency was tampered with changes nothing.
  await preview.locator('form').evaluate((form) => {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = 'currency';
    input.value = 'EUR';
    form.append(input);
  });
  await preview.getByRole('button', { name: 'Confirm change' }).click();
  await expect(page.getByRole('alert')).toContainText('keeps the currency it was bought in');
  await expect(subscription.getByText('Monthly, USD')).toBeVisible();

  await subscription.getByLabel('Billing period').selectOption('yearly');
  await subscription.getByRole('button', { name: 'Preview change' }).click();
  await page.getByRole('button', { name: 'Confirm change' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Your plan was changed. The licence reflects it immediately.',
  );
  await expect(subscription.getByText('Yearly, USD')).toBeVisible();
  await expect(subscription.getByRole('table')).toContainText(
    'Prorated change to Orgsmith Pro, 5 orgs, billed yearly',
  );
});

test('a buyer with subscriptions under two billing accounts gets one link each and reaches both in the local portal', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = `twice-${run}@example.com`;
  // A customer bills in one currency (decision 093): USD and then EUR make two billing accounts.
  await openPlanCheckout(page, 'size=5&period=monthly&currency=USD', 'Buy Pro');
  await payWithCard(page, email, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $749.70' }).click();
  await expect(page).toHaveURL(/\/checkout-success/);
  await sink.waitForMail({ to: email, subject: 'Your Orgsmith Pro licence key' });

  await openPlanCheckout(page, 'size=10&period=yearly&currency=EUR', 'Buy Pro');
  await payWithCard(page, email, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay €15,524.74' }).click();
  await expect(page).toHaveURL(/\/checkout-success/);
  await expect
    .poll(() => sink.mailsFor({ to: email, subject: 'Your Orgsmith Pro licence key' }).length)
    .toBe(2);

  await page.goto('/?modal=portal-access');
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address', { exact: true }).fill(email.toUpperCase());
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByRole('status')).toBeVisible();
  const mail = await sink.waitForMail({
    to: email,
    subject: 'Your links to the Orgsmith billing portal',
  });
  expect(mail.text).toContain('billed to 2 separate billing accounts');
  expect(mail.text).not.toMatch(keyPattern);
  const accountOne = mail.text.slice(
    mail.text.indexOf('Billing account 1'),
    mail.text.indexOf('Billing account 2'),
  );
  const accountTwo = mail.text.slice(mail.text.indexOf('Billing account 2'));
  expect(accountOne).toMatch(/Orgsmith Pro, 10 orgs · billed yearly in EUR · key ending in \w{4}/);
  expect(accountTwo).toMatch(/Orgsmith Pro, 5 orgs · billed monthly in USD · key ending in \w{4}/);
  const eurLink = portalLinkPattern.exec(accountOne)?.[0] ?? '';
  const usdLink = portalLinkPattern.exec(accountTwo)?.[0] ?? '';
  expect(eurLink).not.toBe('');
  expect(usdLink).not.toBe('');
  expect(eurLink).not.toBe(usdLink);

  // Each link opens the portal of its own billing account, once.
  await page.goto(usdLink);
  await expect(page.getByText(/Orgsmith Pro, 5 orgs · billed monthly in USD/)).toBeVisible();
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Open the billing portal' }).click();
  await expect(page).toHaveURL(/\/billing\/local\/portal\/lps_/);
  const usd = page.getByRole('region', { name: 'Orgsmith Pro, 5 orgs' });
  await expect(usd.getByText('Monthly, USD')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Orgsmith Pro, 10 orgs' })).toHaveCount(0);

  await followPortalLink(page, eurLink);
  const eur = page.getByRole('region', { name: 'Orgsmith Pro, 10 orgs' });
  await expect(eur.getByText('Yearly, EUR')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Orgsmith Pro, 5 orgs' })).toHaveCount(0);

  await page.goto(usdLink);
  await expect(page.getByRole('status')).toHaveText(portalLinkNotices.expired);
  await expect(page.getByRole('button', { name: 'Open the billing portal' })).toHaveCount(0);
});

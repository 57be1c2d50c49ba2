import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { waitForHydration } from './support/shell.ts';
import { openPlanCheckout } from './support/checkout-dialog.ts';

let sink: SmtpSink;
/** The worker's sink, where its server sends every e-mail. */
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

/** Unique per run: trials are per address and the e2e database lives on. */
const run = Date.now().toString(36);
const keyPattern = /ORGS(?:-[0-9A-Z]{4}){7}/;
const keepLinkPattern = /http:\/\/localhost:\d+\/keep-trial-key\?token=\S+/;

/**
 * Decision 213: a card purchase with a trial's address (here in another spelling) leaves the
 * trial alone and e-mails its own key, with a link to keep the trial key. The link's page shows
 * what would change; only its button acts, once.
 */
test('a purchase with the trial’s address keeps the trial key only through the e-mailed link, once', async ({
  page,
}) => {
  const email = `keep-${run}@example.com`;
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(email);
  await dialog.locator('button[type=submit]').click();
  const trialMail = await sink.waitForMail({ to: email });
  const trialKey = keyPattern.exec(trialMail.text)?.[0] ?? '';
  expect(trialKey).not.toBe('');

  const typed = `Keep-${run}+shop@EXAMPLE.com`;
  await openPlanCheckout(page, 'size=6&period=monthly&currency=USD', 'Buy Pro');
  await page.getByLabel('Email address').fill(typed);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('status')).toContainText('licence key is on its way');

  const keyMail = await sink.waitForMail({ to: typed, subject: 'Your Orgsmith Pro licence key' });
  const newKey = keyPattern.exec(keyMail.text)?.[0] ?? '';
  expect(newKey).not.toBe(trialKey);
  expect(keyMail.text).toContain(`Keep using your trial key (ending in ${trialKey.slice(-4)})`);
  const link = keepLinkPattern.exec(keyMail.text)?.[0] ?? '';
  expect(link).not.toBe('');
  expect(sink.mailsFor({ to: email, subject: /trial is now/ })).toEqual([]);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Keep using your trial key');
  const main = page.getByRole('main');
  await expect(main).toContainText('Orgsmith Pro, 6 orgs');
  await expect(main).toContainText(`ends in ${trialKey.slice(-4)}`);
  await expect(main).toContainText(`ends in ${newKey.slice(-4)}`);
  await expectNoAxeViolations(page, page.url());
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Keep using my trial key' }).click();
  await expect(main.getByRole('status')).toContainText(
    `Your trial key (ending in ${trialKey.slice(-4)}) now carries your subscription`,
  );
  const converted = await sink.waitForMail({ to: email, subject: /trial is now/ });
  expect(converted.text).toContain(`ends in ${trialKey.slice(-4)}`);
  expect(converted.text).not.toMatch(keyPattern);

  // The link works once: opened again it says so and offers no button.
  await page.goto(link);
  await expect(main).toContainText('This link does not work (any more)');
  await expect(page.getByRole('button', { name: 'Keep using my trial key' })).toHaveCount(0);
});

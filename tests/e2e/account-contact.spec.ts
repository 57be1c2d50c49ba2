import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { failureMessages, successMessages } from '#shared/contracts/messages.ts';

let sink: SmtpSink;
/** The worker's sink, where its server sends every e-mail. */
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

async function openContact(page: Page) {
  await page.goto('/pricing?modal=contact');
  const dialog = page.getByRole('dialog', { name: 'Get in touch' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name', { exact: true })).toBeEditable();
  return dialog;
}

test('the contact dialog validates with the spec texts only once the form is touched', async ({
  page,
}) => {
  const dialog = await openContact(page);
  const name = dialog.getByLabel('Name', { exact: true });
  const email = dialog.getByLabel('Email address', { exact: true });
  const message = dialog.getByLabel('Message', { exact: true });
  const send = dialog.locator('button[type=submit]');

  await expect(send).toBeDisabled();
  await expect(dialog.getByText('You must enter your name.')).toHaveCount(0);
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');

  await name.fill('J');
  await name.fill('');
  await expect(dialog.getByText('You must enter your name.')).toBeVisible();
  await expect(dialog.getByText('You must enter an email address.')).toBeVisible();
  await expect(dialog.getByText('A message text is required.')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  const errorId = await name.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText('You must enter your name.');

  await email.fill('jane@');
  await expect(dialog.getByText('This is not a valid email address.')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await email.fill('jane.doe@example.com');
  await expect(dialog.getByText('This is not a valid email address.')).toHaveCount(0);
  await name.fill('Jane Doe');
  await message.fill('We would like a demo.');
  await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(0);
  await expect(send).toBeEnabled();
  await expect(dialog.getByLabel('Role (optional)')).toBeVisible();
  await expect(dialog.getByLabel('Company (optional)')).toBeVisible();
});

test('sending a message shows progress, the success text, records the event and mails support', async ({
  page,
}) => {
  const dialog = await openContact(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/submitContactForm', async (route) => {
    await held;
    await route.continue();
  });

  await dialog.getByLabel('Name', { exact: true }).fill('Dana Scully');
  await dialog.getByLabel('Email address', { exact: true }).fill('dana@example.com');
  await dialog.getByLabel('Message', { exact: true }).fill('Line one\nLine <two>');
  await dialog.getByLabel('Role (optional)').fill('DevOps lead');
  await dialog.getByLabel('Company (optional)').fill('FBI');
  const send = dialog.locator('button[type=submit]');
  await send.click();

  await expect(send).toBeDisabled();
  await expect(dialog.getByTestId('typing-indicator')).toBeVisible();
  await expect(send).toHaveAccessibleName('Sending…');
  release();

  // The success view replaces the form (decision 186) and takes focus.
  await expect(dialog.getByRole('status')).toHaveText(successMessages.contact);
  const view = dialog.getByRole('region', { name: 'Message sent' });
  await expect(view).toBeFocused();
  await expect(view).toContainText('dana@example.com');
  await expect(send).toHaveCount(0);
  await expect(dialog.getByTestId('typing-indicator')).toHaveCount(0);

  const events = await page.evaluate(() =>
    (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>)),
  );
  expect(events).toContainEqual([
    'event',
    'submitContactForm',
    {
      event_category: 'contact',
      value: 100,
      page_location: expect.stringMatching(/^http:\/\/localhost:\d+\/pricing\?modal=contact$/),
      page_referrer: '',
    },
  ]);

  const mail = await sink.waitForMail({
    to: 'support@orgsmith.io',
    subject: 'Contact form: Dana Scully (FBI)',
  });
  expect(mail.replyTo).toBe('dana@example.com');
  expect(mail.text).toContain('> Line <two>');
  expect(mail.text).toContain('Role: DevOps lead');
  expect(mail.html).toContain('Line &lt;two&gt;');

  // Its Close button closes the dialog; opening it again starts with an empty form.
  await view.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/pricing$/);
  await page.goto('/pricing?modal=contact');
  await expect(page.getByRole('dialog').getByLabel('Name', { exact: true })).toHaveValue('');
});

test('a failed request shows the contact error and keeps what was typed', async ({ page }) => {
  const dialog = await openContact(page);
  await page.route('**/api/submitContactForm', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"Error":"InternalError"}',
    }),
  );
  await dialog.getByLabel('Name', { exact: true }).fill('Fox');
  await dialog.getByLabel('Email address', { exact: true }).fill('fox@example.com');
  await dialog.getByLabel('Message', { exact: true }).fill('The truth is out there.');
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('alert')).toHaveText(failureMessages.contact);
  await expect(dialog.getByLabel('Message', { exact: true })).toHaveValue(
    'The truth is out there.',
  );
  await expect(dialog.locator('button[type=submit]')).toBeEnabled();
  await dialog.getByLabel('Name', { exact: true }).fill('Fox M.');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
});

test('the honeypot is out of sight and out of the tab order; the dialog passes axe', async ({
  page,
}) => {
  const dialog = await openContact(page);
  const honeypot = dialog.locator('input[name=website]');
  await expect(honeypot).toHaveAttribute('tabindex', '-1');
  await expect(honeypot).not.toBeInViewport();
  await dialog.getByLabel('Name', { exact: true }).fill('A');
  await expectNoAxeViolations(page, 'contact dialog', { include: 'dialog' });
});

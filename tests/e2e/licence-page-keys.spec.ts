import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import {
  KEY,
  orderByInvoice,
  requestSeats,
  signInToLicences,
  trialKey,
  validationCode,
} from './support/licence-page.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * The licence page's keys, access tokens and "Request a change" in Chromium (decision 236), at a
 * phone's and a desktop's width: a token is shown once, listed and revoked; the key is replaced
 * keeping one named token, and the validation endpoint tells the old key from the kept token; an
 * invoice subscription's change request is sent once, and a second one is refused with its message.
 */
test.describe.configure({ timeout: 120_000 });

let sink: SmtpSink;
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

const run = Date.now().toString(36);
const TOKEN = /orgsmith_at_\S+/;
/** Validations are cached for up to `LICENSE_VALIDATION_CACHE_SECONDS` (5 s by default). */
const cacheWindow = { timeout: 20_000, intervals: [1_000] };

/** Creates a token named `name` on the page; returns the token shown once. */
async function createToken(page: Page, name: string): Promise<string> {
  await page.getByLabel('New token’s name').fill(name);
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('status').filter({ hasText: `Your token "${name}".` });
  await expect(shown).toContainText('It is shown this once');
  const token = TOKEN.exec((await shown.locator('code').textContent()) ?? '')?.[0] ?? '';
  expect(token).not.toBe('');
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
  return token;
}

for (const width of [1280, 390]) {
  test(`access tokens are created once, listed, revoked; the key is replaced keeping one (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const address = `keys-${width}-${run}@example.com`;
    const oldKey = await trialKey(page, sink, address);
    expect(await validationCode(page, oldKey)).toBe('VALID');
    await signInToLicences(page, sink, address);
    await expect(page.getByText('No access tokens.')).toBeVisible();

    // A token: shown once, listed, working; revoked, it stops.
    const ci = await createToken(page, `CI ${width}`);
    await expectNoAxeViolations(page, `/licences token shown at ${width}`);
    expect(await validationCode(page, ci)).toBe('VALID');
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: `CI ${width}` })).toBeVisible();
    await expect(page.getByText(ci)).toHaveCount(0);
    await page.getByRole('button', { name: `Revoke token CI ${width}` }).click();
    await expect(
      page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'was revoked' }),
    ).toContainText(`Access token "CI ${width}" was revoked.`);
    await expect(page.getByRole('row').filter({ hasText: `CI ${width}` })).toHaveCount(0);
    await expect.poll(() => validationCode(page, ci), cacheWindow).not.toBe('VALID');
    await expectNoAxeViolations(page, `/licences token revoked at ${width}`);

    // Two tokens; the key replaced keeping one of them.
    const kept = await createToken(page, `GitHub ${width}`);
    const ended = await createToken(page, `Jenkins ${width}`);
    await page.getByRole('button', { name: 'Replace the key…' }).click();
    const confirm = page.getByRole('group', { name: /^Replace the key/ });
    await confirm.getByLabel(`Keep “GitHub ${width}”`).check();
    await expectNoAxeViolations(page, `/licences replacing the key at ${width}`);
    await confirm.getByRole('button', { name: 'Replace the key now' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'Your new key.' });
    await expect(shown).toContainText('It is shown this once');
    const newKey = KEY.exec((await shown.locator('code').textContent()) ?? '')?.[0] ?? '';
    expect(newKey).not.toBe('');
    expect(newKey).not.toBe(oldKey);
    await expect(page.getByText(/The key was replaced and e-mailed to you/)).toContainText(
      '1 kept',
    );
    await expect(page.getByRole('row').filter({ hasText: `GitHub ${width}` })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: `Jenkins ${width}` })).toHaveCount(0);
    await expectNoAxeViolations(page, `/licences key replaced at ${width}`);

    await expect.poll(() => validationCode(page, oldKey), cacheWindow).not.toBe('VALID');
    expect(await validationCode(page, newKey)).toBe('VALID');
    expect(await validationCode(page, kept)).toBe('VALID');
    await expect.poll(() => validationCode(page, ended), cacheWindow).not.toBe('VALID');

    // Shown once: a reload shows the key only masked.
    await page.reload();
    await expect(page.getByText(newKey)).toHaveCount(0);
  });

  test(`an invoice subscription asks for a change once; a second request is refused (${width} px)`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const address = `invoice-${width}-${run}@example.com`;
    await orderByInvoice(page, sink, address, `Change Request ${width} GmbH`);
    await signInToLicences(page, sink, address);
    const billing = page.getByRole('region', { name: 'Billing' });
    await expect(billing).toContainText('Paid by invoice (Enterprise');
    await expectNoAxeViolations(page, `/licences invoice billing at ${width}`);

    // A second tab, opened before the first request, still shows the form.
    const stale = await context.newPage();
    await stale.setViewportSize({ width, height: 900 });
    await stale.goto('/licences');
    await waitForHydration(stale);
    await expect(stale.getByRole('group', { name: 'Request a change' })).toBeVisible();

    await requestSeats(page, 12, 'The team grows');
    await expect(billing).toContainText('waiting for our answer');
    await expect(billing.getByRole('group', { name: 'Request a change' })).toHaveCount(0);
    await expectNoAxeViolations(page, `/licences change requested at ${width}`);

    const staleForm = stale.getByRole('group', { name: 'Request a change' });
    await staleForm.getByLabel('What to change').selectOption('cancel');
    await staleForm.getByRole('button', { name: 'Send request' }).click();
    await expect(stale.getByRole('region', { name: 'Billing' })).toContainText(
      'A change request of this subscription is already waiting for our answer.',
    );
    await expectNoAxeViolations(stale, `/licences second request refused at ${width}`);
    // Only the first request is stored: both tabs show it.
    await stale.reload();
    await expect(stale.getByRole('region', { name: 'Billing' })).toContainText('(Seats: 12,');
  });
}

import { vatPricingLine } from '#shared/pricing/vat-line.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { waitForHydration } from './support/shell.ts';
import { expectedPrices } from '#shared/pricing/expected-prices.fixture.ts';

const amount = (page: Page) => page.getByTestId('price-amount');
const period = (page: Page) => page.getByTestId('price-period');
const slider = (page: Page) => page.getByRole('slider', { name: 'Number of Salesforce orgs' });
const minus = (page: Page) => page.getByRole('button', { name: 'One org fewer' });
const plus = (page: Page) => page.getByRole('button', { name: 'One org more' });
const card = (page: Page, edition: string) =>
  page.getByRole('list', { name: 'Plans' }).getByRole('button', { name: edition, exact: true });
const liveRegion = (page: Page) => page.locator('[aria-live="polite"]').filter({ hasText: ':' });

function money(value: number, currency: 'USD' | 'EUR'): string {
  const digits = String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${currency === 'USD' ? '$' : '€'}${digits}`;
}

async function expectQuery(page: Page, query: string) {
  await expect.poll(() => new URL(page.url()).search).toBe(query);
}

test.describe('pricing selector', () => {
  test('shows the defaults: Pro, 4 orgs, monthly, USD', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/pricing');
    await page.waitForLoadState('networkidle');
    await expect(slider(page)).toHaveValue('4');
    await expect(card(page, 'Pro')).toHaveAttribute('aria-pressed', 'true');
    await expect(card(page, 'Starter')).toHaveAttribute('aria-pressed', 'false');
    await expect(amount(page)).toHaveText('$495');
    await expect(period(page)).toHaveText('per month');
    await expect(page.getByText(vatPricingLine)).toBeVisible();
    await expect(page.getByTestId('includes-orgs')).toHaveText('4 orgs');
    await expect(page.getByTestId('includes-stacks')).toHaveText('1 stack');
    await expect(page.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'USD' })).toBeChecked();
    await expect(minus(page)).toBeEnabled();
    await expect(plus(page)).toBeEnabled();
    await expectNoAxeViolations(page, page.url());
    expect(errors).toEqual([]);
  });

  test('moves the slider by keyboard and replaces the URL', async ({ page }) => {
    await page.goto('/pricing');
    await page.waitForLoadState('networkidle');
    const historyLength = await page.evaluate(() => history.length);
    await slider(page).focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    await expect(slider(page)).toHaveValue('10');
    await expect(amount(page)).toHaveText('$1,305');
    await expect(page.getByTestId('includes-orgs')).toHaveText('10 orgs');
    await expect(page.getByTestId('includes-stacks')).toHaveText('2 stacks');
    await expect(page.getByText('Base price $495 for 4 orgs + 6 more orgs × $135')).toBeVisible();
    await expectQuery(page, '?size=10&period=monthly&currency=USD');
    await expect(liveRegion(page)).toHaveText(
      'Pro, 10 orgs, 2 stacks: $1,305 per month net of VAT.',
    );

    await page.keyboard.press('End');
    await expect(slider(page)).toHaveValue('25');
    await expect(amount(page)).toHaveText('$3,500');
    await expect(card(page, 'Enterprise')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('includes-orgs')).toHaveText('Unlimited orgs');
    await expect(page.getByTestId('includes-stacks')).toHaveText('Unlimited stacks');

    await page.keyboard.press('Home');
    await expect(slider(page)).toHaveValue('3');
    await expect(amount(page)).toHaveText('Free');
    await expect(page.getByTestId('includes-orgs')).toHaveText('3 orgs');
    await expect(page.getByText(vatPricingLine)).toHaveCount(0);
    await expect(liveRegion(page)).toHaveText('Starter, 3 orgs, 1 stack: free.');
    await expectQuery(page, '?size=3&period=monthly&currency=USD');
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
  });

  test('sets the slider value directly', async ({ page }) => {
    await page.goto('/pricing');
    await slider(page).fill('24');
    await expect(amount(page)).toHaveText('$3,195');
    await expect(page.getByTestId('includes-stacks')).toHaveText('5 stacks');
    await slider(page).fill('6');
    await expect(amount(page)).toHaveText('$765');
    await expectQuery(page, '?size=6&period=monthly&currency=USD');
  });

  test('drags the slider with the mouse', async ({ page }) => {
    await page.goto('/pricing');
    await page.waitForLoadState('networkidle');
    await slider(page).scrollIntoViewIfNeeded();
    const box = await slider(page).boundingBox();
    if (!box) throw new Error('slider not laid out');
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 8, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, y, { steps: 10 });
    await expect(amount(page)).not.toHaveText('$495');
    await page.mouse.move(box.x + box.width - 2, y, { steps: 10 });
    await page.mouse.up();
    await expect(slider(page)).toHaveValue('25');
    await expect(amount(page)).toHaveText('$3,500');
    await expectQuery(page, '?size=25&period=monthly&currency=USD');
  });

  test('a plan card works before the script runs: the form asks the server for that plan', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const noScript = await context.newPage();
    await noScript.goto('/pricing?size=10&period=yearly&currency=EUR');
    await card(noScript, 'Enterprise').click();
    await expect(noScript).toHaveURL(/plan=Enterprise/);
    await expect(slider(noScript)).toHaveValue('25');
    await expect(noScript.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await expect(noScript.getByRole('radio', { name: 'EUR' })).toBeChecked();
    await context.close();
  });

  test('plus and minus step Pro and are disabled for fixed plans', async ({ page }) => {
    await page.goto('/pricing');
    // The steppers need JavaScript (they have no meaning as a plain form): wait for it.
    await waitForHydration(page);
    await plus(page).click();
    await expect(slider(page)).toHaveValue('5');
    await expect(amount(page)).toHaveText('$630');
    await minus(page).click();
    await minus(page).click();
    await expect(slider(page)).toHaveValue('3');
    await expect(card(page, 'Starter')).toHaveAttribute('aria-pressed', 'true');
    await expect(minus(page)).toBeDisabled();
    await expect(plus(page)).toBeDisabled();
    // Disabled through aria-disabled, so focus stays; pressing does nothing.
    await plus(page).focus();
    await page.keyboard.press('Enter');
    await expect(slider(page)).toHaveValue('3');
    await expect(plus(page)).toBeFocused();

    await slider(page).fill('24');
    await plus(page).press('Enter');
    await expect(slider(page)).toHaveValue('25');
    await expect(plus(page)).toBeDisabled();
    await expect(minus(page)).toBeDisabled();
    await minus(page).click({ force: true });
    await expect(slider(page)).toHaveValue('25');
  });

  test('plan cards set the size to their default', async ({ page }) => {
    await page.goto('/pricing?size=10');
    // The card's text outside its button reacts only once the script runs (decision 110).
    await waitForHydration(page);
    await card(page, 'Enterprise').click();
    await expect(slider(page)).toHaveValue('25');
    await expect(amount(page)).toHaveText('$3,500');
    await card(page, 'Starter').click();
    await expect(slider(page)).toHaveValue('3');
    await expect(amount(page)).toHaveText('Free');
    // The whole card is the click target, not just its name.
    await page.getByText('For growing teams').click({ force: true });
    await expect(slider(page)).toHaveValue('4');
    await expect(card(page, 'Pro')).toHaveAttribute('aria-pressed', 'true');
    // And by keyboard.
    await card(page, 'Enterprise').focus();
    await page.keyboard.press('Space');
    await expect(slider(page)).toHaveValue('25');
    await expectQuery(page, '?size=25&period=monthly&currency=USD');
  });

  test('billing period and currency toggles, by mouse and keyboard', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByRole('radio', { name: /Yearly/ }).click();
    await expect(amount(page)).toHaveText('$5,346');
    await expect(period(page)).toHaveText('per year');
    await expect(page.getByTestId('price-saving')).toHaveText(
      'You save $594 a year compared with monthly billing.',
    );
    await page.getByRole('radio', { name: 'EUR' }).focus();
    await page.keyboard.press('Space');
    await expect(amount(page)).toHaveText('€4,946');
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('radio', { name: 'USD' })).toBeChecked();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'EUR' })).toBeChecked();
    await expectQuery(page, '?size=4&period=yearly&currency=EUR');
    await expect(liveRegion(page)).toHaveText(
      'Pro, 4 orgs, 1 stack: €4,946 per year net of VAT. You save €550 a year.',
    );
    await page.getByRole('radio', { name: /Monthly/ }).check();
    await expect(amount(page)).toHaveText('€458');
    await expect(page.getByTestId('price-saving')).toHaveText('Pay yearly and save €550 a year.');
    await expectNoAxeViolations(page, page.url());
  });

  test('renders a shared quote from the URL, on the server too', async ({ page, browser }) => {
    await page.goto('/pricing?size=10&period=yearly&currency=EUR');
    await expect(amount(page)).toHaveText('€13,046');
    await expect(period(page)).toHaveText('per year');
    await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'EUR' })).toBeChecked();

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const staticPage = await noScript.newPage();
    await staticPage.goto('/pricing?size=25&period=yearly&currency=EUR');
    await expect(amount(staticPage)).toHaveText('€35,002');
    await expect(slider(staticPage)).toHaveValue('25');
    // Without JavaScript the selector is a GET form.
    await slider(staticPage).fill('5');
    await staticPage.getByRole('radio', { name: 'USD' }).check();
    await staticPage.getByRole('button', { name: 'Show price' }).click();
    await expect(amount(staticPage)).toHaveText('$6,804');
    expect(new URL(staticPage.url()).searchParams.get('size')).toBe('5');
    await noScript.close();
  });

  test('invalid URL values fall back to the defaults', async ({ page }) => {
    await page.goto('/pricing?size=99&period=weekly&currency=GBP');
    await expect(slider(page)).toHaveValue('4');
    await expect(amount(page)).toHaveText('$495');
    await expect(period(page)).toHaveText('per month');
    await page.goto('/pricing?size=abc&currency=EUR');
    await expect(amount(page)).toHaveText('€458');
    await page.goto('/pricing?size=2.5&period=yearly');
    await expect(amount(page)).toHaveText('$5,346');
    await page.goto('/pricing?size=-3');
    await expect(slider(page)).toHaveValue('4');
  });

  test('the opened dialogs keep the quote and axe stays clean', async ({ page }) => {
    await page.goto('/pricing?size=12&period=yearly&currency=EUR');
    await page.getByRole('link', { name: 'Try Now' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectQuery(page, '?size=12&period=yearly&currency=EUR&modal=trial');
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(slider(page)).toHaveValue('12');
    await page.getByRole('link', { name: 'Get in touch' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page).toHaveURL(/modal=contact/);
    await page.goBack();

    await page.getByRole('button', { name: 'Enterprise', exact: true }).click();
    await page.getByText('Do you charge per user?').click();
    await expect(
      page.getByText('Orgsmith is priced per Salesforce org, not per user.'),
    ).toBeVisible();
    await expectNoAxeViolations(page, page.url());
  });
});

test('the pricing page carries links, the comparison and FAQ structured data', async ({ page }) => {
  await page.goto('/pricing');
  const main = page.getByRole('main');
  for (const href of ['/support', '/eula/cli', '/privacy', 'https://app.orgsmith.io']) {
    await expect(main.locator(`a[href="${href}"]`).first()).toBeVisible();
  }
  const table = page.getByRole('table', { name: 'Starter, Pro and Enterprise compared' });
  await expect(table.getByRole('row', { name: /Salesforce orgs/ })).toHaveText(
    /Salesforce orgs\s*3\s*4 to 24\s*Unlimited/,
  );
  await expect(table.getByRole('row', { name: /Stacks/ })).toHaveText(
    /Stacks\s*1\s*1 to 5\s*Unlimited/,
  );
  await expect(table.getByRole('row', { name: /Price per month/ })).toHaveText(
    /Free\s*from \$495\s*\$3,500/,
  );
  const jsonLd = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((nodes) => nodes.map((node) => JSON.parse(node.textContent ?? 'null')));
  const faq = jsonLd.find((data) => data?.['@type'] === 'FAQPage');
  const faqSection = page.getByRole('region', { name: 'Frequently asked questions' });
  expect(faq.mainEntity.length).toBe(await faqSection.locator('details').count());
  expect(JSON.stringify(faq)).toContain('up to 5 stacks and 24 orgs');
});

test.describe('pricing page amounts match the hand-written table', () => {
  for (const row of expectedPrices) {
    test(`size ${row.size} in ${row.currency}`, async ({ page }) => {
      for (const billingPeriod of ['monthly', 'yearly'] as const) {
        await page.goto(
          `/pricing?size=${row.size}&period=${billingPeriod}&currency=${row.currency}`,
        );
        const total = row[billingPeriod][2];
        await expect(amount(page)).toHaveText(total === 0 ? 'Free' : money(total, row.currency));
        if (total === 0) continue;
        await expect(period(page)).toHaveText(
          billingPeriod === 'monthly' ? 'per month' : 'per year',
        );
        await expect(page.getByTestId('price-saving')).toContainText(
          money(row.savedYearly, row.currency),
        );
      }
    });
  }
});

test('a slider moved before the page hydrates keeps its value afterwards', async ({ page }) => {
  // Hold the JavaScript back so the slider is moved on the server-rendered page.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/pricing', { waitUntil: 'domcontentloaded' });
  await slider(page).fill('10');
  release();
  await expect(amount(page)).toHaveText('$1,305');
  await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe('10');
});

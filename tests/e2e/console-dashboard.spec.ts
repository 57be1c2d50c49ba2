import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { admin, enrolOperator } from './support/console.ts';

/**
 * The console's home page is the founder's dashboard (decision 234): a viewer, enrolled with
 * Chromium's virtual authenticator, reads the month's figures and the 12-month trend (inline SVG
 * with text alternatives), picks another month, and finds nothing to act on — at 1280 and
 * 390 px, axe clean, no sideways scrolling. `admin dashboard` prints the same figures.
 */
test.describe.configure({ timeout: 180_000 });

for (const width of [1280, 390]) {
  test(`a viewer reads the dashboard at ${width} px`, async ({ page, e2eServer }) => {
    await page.setViewportSize({ width, height: 900 });
    await enrolOperator(page, e2eServer, `dashboard-viewer-${width}@orgsmith.test`, 'viewer');
    await expect(page).toHaveURL(`${e2eServer.consoleURL}/console`);

    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 2, name: 'Trials' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(
      main.getByRole('heading', { level: 2, name: 'Active paid licences' }),
    ).toBeVisible();
    await expect(main.getByRole('heading', { level: 2, name: 'Invoices owed' })).toBeVisible();
    await expect(
      main.getByRole('heading', { level: 2, name: 'Licence validations' }),
    ).toBeVisible();
    await expect(main.getByRole('heading', { level: 2, name: /^MRR, / })).toBeVisible();
    await expect(main.getByRole('heading', { level: 2, name: 'The last 12 months' })).toBeVisible();
    // The charts are images with their figures in words.
    await expect(main.getByRole('img', { name: /^Trials started each month, / })).toBeVisible();
    // A viewer reads; there is nothing to act on (the month picker only reads).
    await expect(main.getByRole('button')).toHaveText(['Show']);
    await expectNoAxeViolations(page, `dashboard at ${width}`);
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      ),
    ).toBe(true);

    // The month before, by the picker: its own figures, the address says which.
    const now = new Date();
    const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
      .toISOString()
      .slice(0, 7);
    await main.getByLabel('Month', { exact: true }).fill(previous);
    await main.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(`${e2eServer.consoleURL}/console?month=${previous}`);
    await expect(main.getByText('No paying subscriptions this month.')).toBeVisible();
    await main.getByText('The numbers month by month').click();
    await expect(main.getByRole('table', { name: 'Trials and MRR month by month' })).toBeVisible();
    await expectNoAxeViolations(page, `dashboard, previous month, at ${width}`);

    // A month not begun is refused in words.
    await page.goto(`${e2eServer.consoleURL}/console?month=2999-01`);
    await expect(page.getByRole('alert')).toContainText('2999-01 has not begun');
  });
}

test('admin dashboard prints the same figures', async ({ e2eServer }) => {
  const stdout = await admin(e2eServer, 'dashboard');
  expect(stdout).toMatch(/^Dashboard for \d{4}-\d{2}/);
  // The worker's server is shared with the specs before this one: counts, not zeros.
  expect(stdout).toMatch(/Active paid licences now: Starter \d+, Pro \d+, Enterprise \d+/);
  expect(stdout).toMatch(/validations that day: \d+ \(\d+ refused\); this month: \d+/);
  const refused = admin(e2eServer, 'dashboard', '--month', '2026-13');
  await expect(refused).rejects.toMatchObject({ code: 2 });
});

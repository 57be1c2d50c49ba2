import { siteConfig } from '#shared/site-config.ts';
import { expect, test } from './support/test.ts';
import { waitForHydration } from './support/shell.ts';

test('imprint: English and Deutsch tabs work with the keyboard', async ({ page }) => {
  await page.goto('/imprint');
  // The tabs' keyboard handling comes with hydration, after the first paint (decision 110).
  await waitForHydration(page);
  const english = page.getByRole('tab', { name: 'English' });
  const german = page.getByRole('tab', { name: 'Deutsch' });
  await expect(english).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel');
  await expect(panel).toContainText(siteConfig.company.name);
  await expect(panel).toContainText(siteConfig.company.managingDirector);
  await expect(panel).toContainText(siteConfig.company.registerNumber);
  await expect(panel).toContainText(siteConfig.company.vatId);
  await expect(panel).toContainText('Managing director');

  await english.focus();
  await page.keyboard.press('ArrowRight');
  await expect(german).toBeFocused();
  await expect(german).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText('Geschäftsführung');
  await expect(page.getByRole('tabpanel')).toContainText(siteConfig.company.registerCourt);
  await expect(page.getByRole('tabpanel').locator('[lang="de"]')).toHaveCount(1);

  await page.keyboard.press('Home');
  await expect(english).toBeFocused();
  await page.keyboard.press('End');
  await expect(german).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(english).toHaveAttribute('aria-selected', 'true');
});

test('EULA: version line, table of contents, and a PDF with the same text', async ({
  page,
  request,
}) => {
  await page.goto('/eula/cli');
  await expect(page.getByTestId('version-line')).toHaveText('Version 1, dated 2021-07-31');
  const contents = page.getByRole('navigation', { name: 'Contents' });
  await contents.getByRole('link', { name: 'Lapsed payment' }).click();
  await expect(page).toHaveURL(/#lapsed-payment$/);
  await expect(page.getByRole('heading', { name: '6. Lapsed payment' })).toBeInViewport();

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download as PDF' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('orgsmith-cli-eula-v1.pdf');
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(path);
  const text = bytes.toString('latin1');
  expect(text.startsWith('%PDF-')).toBe(true);
  expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  // Read as a reader would (poppler-utils): a tagged PDF whose text is the EULA's.
  const { execFileSync } = await import('node:child_process');
  expect(execFileSync('pdfinfo', [path], { encoding: 'utf8' })).toMatch(/^Tagged:\s+yes$/m);
  const extracted = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  expect(extracted).toContain('End User License Agreement');
  expect(extracted).toContain('Version 1, dated 2021-07-31');

  const response = await request.get('/eula/orgsmith-cli-eula-v1.pdf');
  expect(response.headers()['content-type']).toBe('application/pdf');
});

test('privacy: version line, cookies, analytics with consent, retention and rights', async ({
  page,
}) => {
  await page.goto('/privacy');
  await expect(page.getByTestId('version-line')).toHaveText('Version 1, dated 2021-07-31');
  const main = page.getByRole('main');
  await expect(main.getByText(/stored for 3650 days/)).toBeVisible();
  await expect(main.getByText(/denied by default/)).toBeVisible();
  await expect(main.getByText(/deleted within 7 days/)).toBeVisible();
  await expect(main.getByText(/within up to 1 further month/)).toBeVisible();
  await expect(main.getByRole('heading', { name: /Your rights/ })).toBeVisible();
  await expect(main.getByRole('link', { name: siteConfig.supportEmail }).first()).toHaveAttribute(
    'href',
    `mailto:${siteConfig.supportEmail}`,
  );
});

test('long contents entries wrap beside their number, never under it (320 and 390 px)', async ({
  page,
}) => {
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ['/eula/cli', '/privacy']) {
      await page.goto(path);
      const entries = await page
        .getByRole('navigation', { name: 'Contents' })
        .getByRole('link')
        .evaluateAll((links) =>
          links.map((link) => {
            const [number, text] = Array.from(link.querySelectorAll('span'));
            const numberBox = number?.getBoundingClientRect();
            const textBox = text?.getBoundingClientRect();
            return {
              name: link.textContent ?? '',
              numberTop: numberBox?.top ?? -1,
              numberRight: numberBox?.right ?? -1,
              textTop: textBox?.top ?? -2,
              textLeft: textBox?.left ?? -2,
              wrapped: (textBox?.height ?? 0) > 1.5 * (numberBox?.height ?? 0),
            };
          }),
        );
      expect(entries.length, path).toBeGreaterThan(5);
      for (const entry of entries) {
        expect(Math.abs(entry.numberTop - entry.textTop), `${path} ${entry.name}`).toBeLessThan(2);
        expect(entry.textLeft, `${path} ${entry.name}`).toBeGreaterThanOrEqual(entry.numberRight);
      }
      // The case that used to break is really exercised: some entry takes two lines here.
      if (width === 320)
        expect(
          entries.some((entry) => entry.wrapped),
          path,
        ).toBe(true);
    }
  }
});

import { expect, test } from './support/test.ts';

test('the API reference renders every group of operations with no CSP violation and nothing from another origin', async ({
  page,
  baseURL,
}) => {
  const violations: string[] = [];
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void })
        .reportCspViolation;
      report(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  const failed: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
  });

  const response = await page.goto('/account/v1/docs');
  expect(response?.status()).toBe(200);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+';/);
  expect(csp.replace("style-src-attr 'unsafe-inline'", '')).not.toContain('unsafe-');

  // The CLI's flows, each group opened from the sidebar as a reader would.
  const sidebar = page.getByRole('complementary');
  for (const [group, summary] of [
    ['Licence validation', 'Validate a licence key or access token for the CLI'],
    ['Licence certificates', 'Public keys that verify licence certificates (JWK set)'],
    ['Access tokens', 'Create an access token for a licence (shown once)'],
  ] as const) {
    await sidebar.getByRole('link', { name: group, exact: true }).click();
    await expect(page.getByRole('region', { name: summary })).toBeVisible({ timeout: 20_000 });
  }
  await expect(page.getByText('Ask AI')).toHaveCount(0);
  // The stylesheet the bundle injects was allowed: Scalar's layout applies.
  const styled = await page.evaluate(() =>
    Boolean(document.querySelector<HTMLStyleElement>('style#scalar-style')?.sheet),
  );
  expect(styled).toBe(true);

  // The bundle probes once whether it may compile code (`try { Function('') }`) and falls back
  // when it may not: the CSP refusing it is the point. Everything else must pass.
  expect(violations.filter((violation) => !violation.startsWith('script-src eval '))).toEqual([]);
  expect(
    violations.filter((violation) => violation.startsWith('script-src eval ')).length,
  ).toBeLessThanOrEqual(1);
  expect(failed).toEqual([]);
  expect(consoleErrors).toEqual([]);
  const origin = new URL(baseURL ?? '').origin;
  expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
});

import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { featurePages, pages, servicePages } from '#app/pages.ts';
import { siteConfig } from '#shared/site-config.ts';
import { waitForHydration } from './support/shell.ts';

const contentPages = [
  pages.home,
  ...featurePages,
  ...servicePages,
  pages.support,
  pages.imprint,
  pages.eula,
  pages.privacy,
  pages.checkoutSuccess,
];

for (const info of contentPages) {
  test(`${info.path} has no axe violations and renders its content on the server`, async ({
    page,
    request,
  }) => {
    const html = await (await request.get(info.path)).text();
    expect(html).toContain('<h1');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(info.path);
    await expectNoAxeViolations(page, page.url());
  });
}

test('home: hero, terminal frame in the server HTML, six feature links, four steps, structured data', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/')).text();
  expect(html).toContain('data-testid="terminal-demo"');
  expect(html).toContain('data-testid="terminal-screen"');

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('versioned in Git');
  const main = page.getByRole('main');
  for (const feature of featurePages) {
    await expect(main.getByRole('link', { name: feature.title, exact: true })).toHaveAttribute(
      'href',
      feature.path,
    );
  }
  const steps = main.getByRole('list').filter({ hasText: 'Download the CLI' });
  await expect(steps.getByRole('listitem')).toHaveCount(4);
  await expect(steps.getByRole('link', { name: 'Download' })).toHaveAttribute('href', '/download');
  await expect(steps.getByRole('link', { name: 'Read the docs' })).toHaveAttribute(
    'href',
    siteConfig.links.docs,
  );
  await expect(steps.getByRole('link', { name: 'Open the community chat' })).toHaveAttribute(
    'href',
    siteConfig.links.communityChat,
  );
  await expect(steps.getByRole('link', { name: 'See pricing' })).toHaveAttribute(
    'href',
    '/pricing',
  );
  await expect(main.getByText('Latest version 3.2.2, released 2025-06-07')).toBeVisible();

  const jsonLd = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((nodes) => nodes.map((node) => JSON.parse(node.textContent ?? '{}')));
  const app = jsonLd.find((data) => Array.isArray(data['@type']));
  const organization = jsonLd.find((data) => data['@type'] === 'Organization');
  expect(app).toMatchObject({
    '@type': ['SoftwareApplication', 'Product'],
    softwareVersion: '3.2.2',
    offers: { price: '0', priceCurrency: 'USD' },
    aggregateRating: { ratingValue: 5, ratingCount: 264 },
  });
  expect(organization).toMatchObject({ legalName: siteConfig.company.name });
});

test('home: Start for Free opens the trial dialog, Download goes to /download', async ({
  page,
}) => {
  await page.goto('/');
  const hero = page.locator('section').first();
  await hero.getByRole('link', { name: 'Start for Free' }).click();
  await expect(page).toHaveURL(/\?modal=trial$/);
  await expect(page.getByRole('dialog', { name: 'Start your free trial' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await hero.getByRole('link', { name: 'Download', exact: true }).click();
  await expect(page).toHaveURL(/\/download$/);
});

for (const feature of featurePages) {
  test(`${feature.path}: sections with examples and a Try Now band that opens the trial dialog`, async ({
    page,
  }) => {
    await page.goto(feature.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(feature.title);
    const sections = page.locator('main section[id]');
    expect(await sections.count()).toBeGreaterThanOrEqual(3);
    await page.getByRole('link', { name: 'Try Now' }).click();
    await expect(page).toHaveURL(/\?modal=trial$/);
    await expect(page.getByRole('dialog', { name: 'Start your free trial' })).toBeVisible();
  });
}

test('toolbox page: command reference with all seventeen commands and the six options', async ({
  page,
}) => {
  await page.goto(`${pages.featureToolbox.path}#command-reference`);
  const reference = page.locator('#command-reference');
  await expect(reference.getByRole('heading', { name: 'Command reference' })).toBeVisible();
  await expect(reference.locator('dt')).toHaveCount(17);
  for (const command of ['env:tags:delete', 'flow:merge', 'stack:setdefault', 'auth:git:save']) {
    await expect(reference.getByText(`orgsmith ${command}`, { exact: true })).toBeVisible();
  }
  for (const option of ['checkOnly', 'environment', 'from', 'into', 'name', 'branchName']) {
    await expect(
      reference.getByRole('rowheader', { name: `--${option}`, exact: true }),
    ).toBeVisible();
  }
  const toolbox = page.locator('#toolbox');
  await expect(toolbox.locator('tbody tr')).toHaveCount(12);
  await expect(toolbox.locator('tr[data-edition="pro"]')).toHaveCount(5);
  await expect(
    toolbox.getByRole('row', { name: /toolbox:deploy/ }).getByText('Pro and higher'),
  ).toBeVisible();
});

test('CI page: copyable workflow with the setup action, secret and EULA variable', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(pages.featureCiCd.path);
  // Copying needs the script, which starts after the first paint (decision 110).
  await waitForHydration(page);
  const workflow = page.getByLabel('GitHub Actions workflow', { exact: true });
  await expect(workflow).toContainText(`uses: ${siteConfig.links.setupAction}`);
  await expect(workflow).toContainText('--access-token ${{ secrets.ORGSMITH_ACCESS_TOKEN }}');
  await expect(workflow).toContainText("ORGSMITH_ACCEPT_EULA: 'true'");
  await expect(page.getByText('linux/amd64 and linux/arm64').first()).toBeVisible();
  await page.getByRole('button', { name: 'Copy GitHub Actions workflow' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('orgsmith flow:out --environment uat --checkOnly');
});

for (const service of servicePages) {
  test(`${service.path}: what you get, phases, audience, Get in Touch opens the contact dialog`, async ({
    page,
  }) => {
    await page.goto(service.path);
    await expect(page.getByRole('heading', { name: 'What you get' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'How an engagement runs' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Who it is for' })).toBeVisible();
    const buttons = page.getByRole('link', { name: 'Get in Touch' });
    await expect(buttons).toHaveCount(2);
    await buttons.last().click();
    await expect(page).toHaveURL(/\?modal=contact$/);
    await expect(page.getByRole('dialog', { name: 'Get in touch' })).toBeVisible();
  });
}

test('support: chat and e-mail links, free support, SLA, what to include with a warning', async ({
  page,
}) => {
  await page.goto(pages.support.path);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Open the community chat' })).toHaveAttribute(
    'href',
    siteConfig.links.communityChat,
  );
  await expect(
    main.getByRole('link', { name: `Write to ${siteConfig.supportEmail}` }),
  ).toHaveAttribute('href', `mailto:${siteConfig.supportEmail}`);
  await expect(
    main.getByRole('heading', { name: /Free for every licence, trials included/ }),
  ).toBeVisible();
  await expect(main.getByText(/within at most 24 hours on business days/)).toBeVisible();
  for (const item of ['The CLI version', 'Your operating system', 'The command', 'The logs']) {
    await expect(main.getByText(item, { exact: true })).toBeVisible();
  }
  await expect(main.locator('[data-tone="warning"]')).toContainText('sensitive data');
  await main.getByRole('link', { name: 'Get in touch' }).click();
  await expect(page.getByRole('dialog', { name: 'Get in touch' })).toBeVisible();
});

test("support: the three cards' buttons line up, whatever their labels wrap to", async ({
  page,
}) => {
  for (const width of [900, 1024, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(pages.support.path);
    const boxes = await page
      .getByRole('region', { name: 'How to reach us' })
      .getByRole('listitem')
      .getByRole('link')
      .evaluateAll((links) =>
        links.map((link) => {
          const box = link.getBoundingClientRect();
          return { top: Math.round(box.top), height: Math.round(box.height) };
        }),
      );
    expect(boxes, `${width} px`).toHaveLength(3);
    const [first] = boxes;
    for (const box of boxes) expect(box, `${width} px`).toEqual(first);
  }
});

test('checkout success: congratulation, e-mail, junk folder, 10 minutes, support', async ({
  page,
}) => {
  await page.goto(pages.checkoutSuccess.path);
  await expect(page).toHaveTitle('Checkout Successful - Orgsmith');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  const main = page.getByRole('main');
  await expect(main.getByText(/Congratulations/)).toBeVisible();
  await expect(main.getByText(/licence key is on its way/)).toBeVisible();
  await expect(main.getByText(/junk or spam folder/)).toBeVisible();
  await expect(main.getByRole('heading', { name: 'Nothing after 10 minutes?' })).toBeVisible();
  await expect(main.getByRole('link', { name: /Contact support/ })).toHaveAttribute(
    'href',
    `mailto:${siteConfig.supportEmail}`,
  );
});

import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * The download page as visitors on different systems see it: the preselected tab, the suggested
 * file and the analytics event of a download click (docs/product-rules.md#pages, #behaviour, #constants).
 */
const FILE_HOST = 'https://downloads.orgsmith.io/';

const userAgents = {
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  windows64:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  windows32Firefox: 'Mozilla/5.0 (Windows NT 10.0; rv:115.0) Gecko/20100101 Firefox/115.0',
  linuxArm64Firefox: 'Mozilla/5.0 (X11; Linux aarch64; rv:127.0) Gecko/20100101 Firefox/127.0',
  linuxChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

/** Firefox has no User-Agent Client Hints: remove Chromium's so the page sees what Firefox offers. */
async function withoutClientHints(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined });
  });
}

/** Chromium's high-entropy hints as a machine with the given CPU would report them. */
async function withClientHints(page: Page, architecture: string, bitness: string) {
  await page.addInitScript(
    ([arch, bits]) => {
      const real = Reflect.get(navigator, 'userAgentData');
      const platform =
        typeof real === 'object' && real !== null ? Reflect.get(real, 'platform') : '';
      Object.defineProperty(Navigator.prototype, 'userAgentData', {
        get: () => ({
          platform,
          getHighEntropyValues: async () => ({ platform, architecture: arch, bitness: bits }),
        }),
      });
    },
    [architecture, bitness],
  );
}

/** Answers download links with 204 so the page stays and its dataLayer can be read. */
async function interceptDownloads(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.route(`${FILE_HOST}**`, (route) => {
    requested.push(route.request().url());
    return route.fulfill({ status: 204, body: '' });
  });
  return requested;
}

/** The spec's download event, with the page as analytics may see it (decision 125). */
function downloadEvent(label: string) {
  return {
    event_category: 'download',
    event_label: label,
    value: 250,
    page_location: expect.stringMatching(/^http:\/\/localhost:\d+\/download$/),
    page_referrer: '',
  };
}

async function downloadEvents(page: Page): Promise<unknown[]> {
  return page.evaluate(() =>
    (window.dataLayer ?? [])
      .map((entry) => Array.from(entry as ArrayLike<unknown>))
      .filter((args) => args[0] === 'event' && args[1] === 'downloadCli'),
  );
}

const suggested = (page: Page) => page.getByTestId('suggested-download').getByRole('link');

async function expectSuggestion(page: Page, tab: string, fileName: string) {
  await expect(page.getByRole('tab', { name: tab, exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(suggested(page)).toHaveAttribute('data-file-name', fileName);
  await expect(suggested(page)).toHaveAttribute(
    'href',
    `https://downloads.orgsmith.io/cli/${fileName}`,
  );
}

async function clickSuggestedAndExpectEvent(page: Page, requested: string[], label: string) {
  await suggested(page).click();
  await expect
    .poll(() => downloadEvents(page))
    .toEqual([['event', 'downloadCli', downloadEvent(label)]]);
  await expect.poll(() => requested.length).toBe(1);
}

test.describe('macOS visitor', () => {
  test.use({ userAgent: userAgents.mac });

  test('gets the macOS tab and the universal .pkg; a click records the event', async ({ page }) => {
    const requested = await interceptDownloads(page);
    await page.goto('/download');
    await expectSuggestion(page, 'macOS', 'orgsmith-3.2.2-osx-universal.pkg');
    await expect(suggested(page)).toContainText('Download for macOS');
    await expect(page.locator('#suggested-description')).toContainText(
      'macOS installer (.pkg), universal for Apple Silicon and Intel Macs',
    );
    await clickSuggestedAndExpectEvent(page, requested, 'macOS | universal | pkg');
    expect(requested[0]).toBe('https://downloads.orgsmith.io/cli/orgsmith-3.2.2-osx-universal.pkg');
  });

  test('choosing a tab recomputes the suggestion; Docker keeps the last one', async ({ page }) => {
    await page.goto('/download');
    await expectSuggestion(page, 'macOS', 'orgsmith-3.2.2-osx-universal.pkg');
    await page.getByRole('tab', { name: 'Linux' }).click();
    await expectSuggestion(page, 'Linux', 'orgsmith-3.2.2-linux-x64.zip');
    await expect(page.getByRole('tabpanel').locator('li[data-suggested]')).toHaveAttribute(
      'data-file-name',
      'orgsmith-3.2.2-linux-x64.zip',
    );
    // Keyboard: arrow keys move along the tabs (ARIA tab pattern).
    await page.getByRole('tab', { name: 'Linux' }).press('ArrowLeft');
    await page.getByRole('tab', { name: 'macOS' }).press('ArrowLeft');
    await expectSuggestion(page, 'Windows', 'orgsmith-3.2.2-win-x64.msi');
    await page.getByRole('tab', { name: 'Docker' }).click();
    await expect(page.getByRole('tab', { name: 'Docker' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(suggested(page)).toHaveAttribute('data-file-name', 'orgsmith-3.2.2-win-x64.msi');
  });
});

test.describe('macOS visitor without JavaScript', () => {
  test.use({ userAgent: userAgents.mac, javaScriptEnabled: false });

  test('gets the page every visitor gets: the spec’s default, Windows', async ({ page }) => {
    // The HTML is the same for every visitor so it can be cached (decision 100); the browser
    // picks the visitor's system, which takes JavaScript.
    await page.goto('/download');
    await expectSuggestion(page, 'Windows', 'orgsmith-3.2.2-win-x64.msi');
    await expect(page.getByRole('tabpanel', { name: 'Windows' })).toBeVisible();
  });
});

test.describe('Windows 64-bit visitor', () => {
  test.use({ userAgent: userAgents.windows64 });

  test('gets the Windows tab and the x64 .msi', async ({ page }) => {
    const requested = await interceptDownloads(page);
    await page.goto('/download');
    await expectSuggestion(page, 'Windows', 'orgsmith-3.2.2-win-x64.msi');
    await expect(page.getByRole('tabpanel')).toContainText('SmartScreen');
    await expect(page.getByRole('tabpanel')).toContainText('Run anyway');
    // The note links to the checksum instructions, inside a closed FAQ item.
    await page.getByRole('link', { name: 'how to verify a checksum' }).click();
    await expect(page.locator('#verify-checksum')).toBeVisible();
    await clickSuggestedAndExpectEvent(page, requested, 'Windows | x64 | msi');
  });
});

test.describe('Windows 32-bit visitor', () => {
  test.use({ userAgent: userAgents.windows32Firefox });

  test('with Firefox (no client hints) gets the x86 .msi', async ({ page }) => {
    await withoutClientHints(page);
    const requested = await interceptDownloads(page);
    await page.goto('/download');
    await expectSuggestion(page, 'Windows', 'orgsmith-3.2.2-win-x86.msi');
    await clickSuggestedAndExpectEvent(page, requested, 'Windows | x86 | msi');
  });
});

test.describe('Windows 32-bit visitor with Chrome', () => {
  // Chrome's reduced user agent always says "Win64; x64"; only the bitness hint tells the truth.
  test.use({ userAgent: userAgents.windows64 });

  test('is corrected to the x86 .msi by the client hints', async ({ page }) => {
    await withClientHints(page, 'x86', '32');
    await page.goto('/download');
    await expectSuggestion(page, 'Windows', 'orgsmith-3.2.2-win-x86.msi');
  });
});

test.describe('Linux arm64 visitor', () => {
  test.use({ userAgent: userAgents.linuxArm64Firefox });

  test('gets the Linux tab and the arm64 zip', async ({ page }) => {
    await withoutClientHints(page);
    const requested = await interceptDownloads(page);
    await page.goto('/download');
    await expectSuggestion(page, 'Linux', 'orgsmith-3.2.2-linux-arm64.zip');
    await clickSuggestedAndExpectEvent(page, requested, 'Linux | arm64 | zip');
  });
});

test.describe('Linux arm64 visitor with Chromium', () => {
  test.use({ userAgent: userAgents.linuxChrome });

  test('is refined from x64 to arm64 by the client hints, and row downloads track too', async ({
    page,
  }) => {
    await withClientHints(page, 'arm', '64');
    const requested = await interceptDownloads(page);
    await page.goto('/download');
    await expectSuggestion(page, 'Linux', 'orgsmith-3.2.2-linux-arm64.zip');
    await page.getByRole('link', { name: 'Download orgsmith-3.2.2-linux-x64.zip' }).click();
    await expect
      .poll(() => downloadEvents(page))
      .toEqual([['event', 'downloadCli', downloadEvent('Linux | x64 | zip')]]);
    await expect
      .poll(() => requested)
      .toEqual(['https://downloads.orgsmith.io/cli/orgsmith-3.2.2-linux-x64.zip']);
  });
});

test.describe('page content', () => {
  test.use({ userAgent: userAgents.windows64 });

  test('shows version, date, links, notes, snippets, change log and FAQ', async ({ page }) => {
    await page.goto('/download');
    await expect(page.getByTestId('current-version')).toHaveText(
      'Version 3.2.2, released 2025-06-07',
    );
    await expect(page.getByRole('link', { name: 'Release notes' })).toHaveAttribute(
      'href',
      '#release-notes',
    );
    await page.getByRole('link', { name: 'Other options' }).click();
    await expect(page).toHaveURL(/#other-options$/);
    await expect(page.getByRole('heading', { name: 'Other options' })).toBeInViewport();

    // Every Windows file with its SHA-256 beside it.
    const rows = page.getByRole('tabpanel').locator('li[data-file-name]');
    await expect(rows).toHaveCount(4);
    for (const row of await rows.all()) {
      await expect(row.locator('pre')).toHaveText(/^[0-9a-f]{64}$/);
      await expect(
        row.getByRole('button', { name: /^Copy SHA-256 of orgsmith-3\.2\.2-win-/ }),
      ).toBeVisible();
    }

    await page.getByRole('tab', { name: 'macOS' }).click();
    await expect(page.getByRole('tabpanel')).toContainText('Universal is recommended');
    await expect(page.getByRole('tabpanel')).toContainText('unreliable on Apple Silicon');
    await expect(page.getByRole('tabpanel')).toContainText('signed and notarized');
    await expect(page.getByRole('tabpanel').locator('li[data-file-name]')).toHaveCount(6);

    await page.getByRole('tab', { name: 'Docker' }).click();
    const docker = page.getByRole('tabpanel');
    await expect(docker).toContainText('linux/amd64 and linux/arm64');
    await expect(docker.locator('pre').first()).toContainText('docker pull orgsmith/cli:3.2.2');
    await expect(docker.locator('pre').first()).toContainText('docker pull orgsmith/cli:latest');
    await expect(docker.getByRole('button', { name: 'Copy docker run command' })).toBeVisible();

    await page.getByRole('tab', { name: 'GitHub Actions' }).click();
    const workflow = page.getByRole('tabpanel').locator('pre');
    await expect(workflow).toContainText('uses: orgsmith/setup-orgsmith@v1');
    await expect(workflow).toContainText('--access-token ${{ secrets.ORGSMITH_ACCESS_TOKEN }}');
    await expect(workflow).toContainText("ORGSMITH_ACCEPT_EULA: 'true'");

    const log = page.locator('#release-notes');
    await expect(log.locator('li[id^="release-"]')).toHaveCount(2);
    await expect(log.locator('li[id^="release-"]').first()).toHaveAttribute('id', 'release-3.2.2');
    await expect(page.locator('[id="release-3.2.2"]')).toContainText('2025-06-07');
    await expect(page.locator('[id="release-3.2.2"] code')).toHaveText(
      'INSUFFICIENT_ACCESS: Inactive Organization',
    );
    await expect(page.locator('[id="release-3.2.1"]')).toContainText('access-token argument');

    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible();
    for (const title of [
      'Why does Windows warn me about the installer?',
      'Which download do I need on a Mac with Apple Silicon?',
      'What do I need to run Orgsmith?',
      'How do I verify a checksum?',
      'Do I need a licence key?',
      'Can I use Orgsmith in CI pipelines and Docker?',
    ]) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    await page.getByRole('heading', { name: 'How do I verify a checksum?' }).click();
    await expect(page.locator('#verify-checksum')).toContainText(
      'Get-FileHash .\\orgsmith-3.2.2-win-x64.msi -Algorithm SHA256',
    );
  });

  test('copies a checksum to the clipboard', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/download');
    await waitForHydration(page);
    const row = page.getByRole('tabpanel').locator('li[data-suggested]');
    const sha = await row.locator('pre').textContent();
    await row.getByRole('button', { name: /^Copy SHA-256/ }).click();
    await expect(row.getByRole('button', { name: /^Copy SHA-256/ })).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sha);
  });

  test('links the Atom feed from the head', async ({ page, request }) => {
    await page.goto('/download');
    const link = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
    await expect(link).toHaveAttribute('href', '/download/feed.atom');
    const feed = await request.get('/download/feed.atom');
    expect(feed.status()).toBe(200);
    expect(await feed.text()).toContain('<title>Orgsmith 3.2.2</title>');
  });

  test('has no accessibility violations, and screenshots at phone and desktop widths', async ({
    page,
  }) => {
    for (const width of [360, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/download');
      await expectNoAxeViolations(page, `/download at ${width}px`, { include: 'main' });
      const overflow = await page.evaluate(() => {
        const main = document.querySelector('main');
        return main ? main.scrollWidth - main.clientWidth : 0;
      });
      expect(overflow).toBe(0);
      await page.screenshot({
        path: `test-results/screenshots/download-${width}.png`,
        fullPage: true,
      });
    }
  });
});

import { createHash, createPublicKey } from 'node:crypto';
import type { Release } from '#shared/downloads/catalog.ts';
import { findArtifact } from '#shared/downloads/catalog.ts';
import { groupedFingerprint, verifyCommands } from '#shared/downloads/verification.ts';
import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { waitForHydration } from './support/shell.ts';

/** "Verify your download" on /download (decision 140): links, fingerprint, copy-ready commands. */
test.describe('verify your download', () => {
  test('long commands scroll beside their Copy button, never under it', async ({ page }) => {
    for (const width of [320, 390, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/download');
      const blocks = await page
        .getByRole('main')
        .locator('pre')
        .evaluateAll((pres) =>
          pres.map((pre) => {
            const button = pre.parentElement?.querySelector('button');
            return {
              label: pre.getAttribute('aria-label') ?? '',
              codeRight: pre.getBoundingClientRect().right,
              buttonLeft: button?.getBoundingClientRect().left ?? -1,
              scrolls: pre.scrollWidth > pre.clientWidth,
            };
          }),
        );
      expect(blocks.length, `${width} px`).toBeGreaterThan(5);
      for (const block of blocks) {
        expect(block.codeRight, `${width} px: ${block.label}`).toBeLessThanOrEqual(
          block.buttonLeft,
        );
      }
      // The case that used to overlap is exercised: some command is wider than its box.
      expect(
        blocks.some((block) => block.scrolls),
        `${width} px`,
      ).toBe(true);
    }
  });

  test('links SHA256SUMS, the signature and the key, and shows the key’s fingerprint', async ({
    page,
    request,
  }) => {
    const latest = (await (await request.get('/api/releases/latest')).json()) as Release;
    await page.goto('/download');
    const section = page.getByRole('region', { name: 'Verify your download' });
    await expect(section).toBeVisible();
    const pathOf = (url: string) => new URL(url).pathname;
    await expect(section.getByRole('link', { name: 'SHA256SUMS', exact: true })).toHaveAttribute(
      'href',
      new RegExp(`${pathOf(latest.sha256SumsUrl)}$`),
    );
    await expect(section.getByRole('link', { name: 'SHA256SUMS.sig' })).toHaveAttribute(
      'href',
      new RegExp(`${pathOf(latest.signatureUrl)}$`),
    );
    // The seeded release has no SBOM: no link to one.
    expect(latest.sbomUrl).toBeNull();
    await expect(section.getByRole('link', { name: 'sbom.cdx.json' })).toHaveCount(0);

    const keyLink = section.getByRole('link', { name: 'release-signing-key.pem' });
    await expect(keyLink).toHaveAttribute('href', '/downloads/release-signing-key.pem');
    const pem = await (await request.get('/downloads/release-signing-key.pem')).text();
    const der = createPublicKey(pem).export({ type: 'spki', format: 'der' });
    const fingerprint = createHash('sha256').update(der).digest('hex');
    await expect(section).toContainText(groupedFingerprint(fingerprint));
    // The key the page names is the one that signed the release.
    expect(await (await request.get(pathOf(latest.signingKeyUrl))).text()).toBe(pem);
  });

  test('copy buttons copy exactly the commands the shared module builds', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const latest = (await (await request.get('/api/releases/latest')).json()) as Release;
    const windows = findArtifact(latest, {
      operatingSystem: 'Windows',
      architecture: 'x64',
      format: 'msi',
    });
    if (!windows) throw new Error('the seeded release has a Windows x64 installer');
    await page.goto('/download');
    await waitForHydration(page);
    const section = page.getByRole('region', { name: 'Verify your download' });
    const commands = verifyCommands({
      windowsFile: windows.fileName,
      windowsSha256: windows.sha256,
    });
    expect(commands).toHaveLength(6);
    for (const command of commands) {
      const button = section.getByRole('button', { name: `Copy ${command.label}`, exact: true });
      await button.click();
      await expect(button).toHaveText('Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText()), command.id).toBe(
        command.command,
      );
    }
  });

  test('axe finds nothing in the section, and it fits a 320 px screen', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    await page.goto('/download');
    await waitForHydration(page);
    await page.getByRole('region', { name: 'Verify your download' }).scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page, 'download page at 320 px');
    const excess = await page.evaluate(() =>
      Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
    );
    expect(excess).toBe(0);
  });
});

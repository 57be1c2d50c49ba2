import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { localPages } from './load-pages.ts';

const hostile = '<script>alert("x")</script> & co';

describe('the local pages', () => {
  it('escape every value they show, in text and in attributes', async () => {
    const { messagePage } = await localPages.message();
    const html = String(
      await messagePage({
        title: hostile,
        paragraphs: [hostile],
        link: { href: '/x?a=1&b="2"', label: hostile },
      }),
    );
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(html).toContain('href="/x?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain('<strong>TEST MODE</strong>');
  });

  it('render when the server runs from source with plain Node, which cannot load .tsx itself', () => {
    const script = `
      const { localPages } = await import('./server/billing/payments/local/pages/load-pages.ts');
      const { cookieInterstitialPage } = await localPages.message();
      process.stdout.write(String(cookieInterstitialPage('/billing/local/portal/lps_1?cookie=1')));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(output).toContain(
      '<meta http-equiv="refresh" content="0; url=/billing/local/portal/lps_1?cookie=1"/>',
    );
    expect(output).toContain('<title>Loading - Orgsmith</title>');
  });
});

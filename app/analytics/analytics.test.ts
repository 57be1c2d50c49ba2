import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

function entries(): unknown[][] {
  return (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
}

describe('analytics', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubGlobal('window', {
      dataLayer: [],
      location: { href: 'http://localhost/download', origin: 'http://localhost' },
    });
    vi.stubGlobal('document', {
      head: { appendChild: vi.fn() },
      createElement: () => ({}),
      referrer: '',
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  /** Where the visitor is: a link with a secret, reached from another link with one. */
  function visit(href: string, referrer: string) {
    window.location.href = href;
    vi.stubGlobal('document', { ...document, referrer });
  }

  it('defaults consent to denied and loads no script without a measurement id', async () => {
    const { initAnalytics } = await import('./analytics.ts');
    initAnalytics({ measurementId: null, consentGranted: false });
    expect(entries()[0]).toEqual([
      'consent',
      'default',
      {
        ad_storage: 'denied',
        analytics_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
      },
    ]);
    expect(entries().some((e) => e[0] === 'consent' && e[1] === 'update')).toBe(false);
    expect(document.head.appendChild).not.toHaveBeenCalled();
  });

  it('grants ad and analytics storage for a returning visitor who accepted', async () => {
    const { initAnalytics } = await import('./analytics.ts');
    initAnalytics({ measurementId: 'G-TEST123', consentGranted: true });
    expect(entries()).toContainEqual([
      'consent',
      'update',
      { ad_storage: 'granted', analytics_storage: 'granted' },
    ]);
    expect(document.head.appendChild).toHaveBeenCalledOnce();
  });

  it('a withdrawal denies every storage at once and lets no further event through', async () => {
    const { grantConsent, initAnalytics, trackDownload, trackPageView, withdrawConsent } =
      await import('./analytics.ts');
    initAnalytics({ measurementId: 'G-TEST123', consentGranted: true });
    trackPageView('/download', 'Download');
    withdrawConsent();
    const before = entries().length;
    trackPageView('/pricing', 'Pricing');
    trackDownload({ operatingSystem: 'Windows', architecture: 'x64', format: 'msi' });
    expect(entries().at(before - 1)).toEqual([
      'consent',
      'update',
      {
        ad_storage: 'denied',
        analytics_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
      },
    ]);
    expect(
      entries()
        .slice(before)
        .filter((e) => e[0] === 'event'),
    ).toEqual([]);
    // Consent given again: events flow again.
    grantConsent();
    trackPageView('/pricing', 'Pricing');
    expect(
      entries()
        .filter((e) => e[0] === 'event')
        .map((e) => e[1]),
    ).toEqual(['page_view', 'page_view']);
  });

  it('after a withdrawal on an earlier page: no tag loaded, no event sent', async () => {
    const { initAnalytics, trackPageView } = await import('./analytics.ts');
    initAnalytics({ measurementId: 'G-TEST123', consentGranted: false, consentWithdrawn: true });
    trackPageView('/download', 'Download');
    expect(entries().filter((e) => e[0] === 'event' || e[0] === 'config')).toEqual([]);
    expect(document.head.appendChild).not.toHaveBeenCalled();
    // Consent given again: the tag loads now, once.
    const { grantConsent } = await import('./analytics.ts');
    grantConsent();
    grantConsent();
    expect(entries().filter((e) => e[0] === 'config')).toHaveLength(1);
    expect(document.head.appendChild).toHaveBeenCalledOnce();
  });

  it('records the download event with the spec label and value', async () => {
    const { trackDownload } = await import('./analytics.ts');
    trackDownload({ operatingSystem: 'Windows', architecture: 'x64', format: 'msi' });
    expect(entries()).toContainEqual([
      'event',
      'downloadCli',
      {
        event_category: 'download',
        event_label: 'Windows | x64 | msi',
        value: 250,
        page_location: 'http://localhost/download',
        page_referrer: '',
      },
    ]);
  });

  it('gives the tag only allowed parameters of the location and referrer, from the start', async () => {
    visit(
      'http://localhost/replace-licence-key?token=SECRET&utm_source=mail#key',
      'http://localhost/checkout-success?session_id=cs_test_SECRET&modal=contact',
    );
    const page = {
      page_location: 'http://localhost/replace-licence-key?utm_source=mail',
      page_referrer: 'http://localhost/checkout-success?modal=contact',
    };
    const { initAnalytics, trackPageView } = await import('./analytics.ts');
    initAnalytics({ measurementId: 'G-TEST123', consentGranted: false });
    trackPageView('/replace-licence-key', 'Replace your licence key');
    expect(entries()).toContainEqual(['set', page]);
    expect(entries()).toContainEqual(['config', 'G-TEST123', { send_page_view: false, ...page }]);
    expect(entries()).toContainEqual([
      'event',
      'page_view',
      { page_path: '/replace-licence-key', page_title: 'Replace your licence key', ...page },
    ]);
    // The tag is told the page before it could read the real one: `set` precedes `config`.
    const commands = entries().map((entry) => entry[0]);
    expect(commands.indexOf('set')).toBeLessThan(commands.indexOf('config'));
    expect(JSON.stringify(entries())).not.toMatch(/SECRET|token|session_id|#key/);
  });

  it('sends another site as the referrer by its origin only', async () => {
    visit('http://localhost/pricing?size=10&email=a@b.c', 'https://mail.example/read?id=42');
    const { trackContact } = await import('./analytics.ts');
    trackContact();
    expect(entries()).toContainEqual([
      'event',
      'submitContactForm',
      {
        event_category: 'contact',
        value: 100,
        page_location: 'http://localhost/pricing?size=10',
        page_referrer: 'https://mail.example/',
      },
    ]);
  });

  it('records the contact event with weight 100', async () => {
    const { trackContact } = await import('./analytics.ts');
    trackContact();
    expect(entries()).toContainEqual([
      'event',
      'submitContactForm',
      {
        event_category: 'contact',
        value: 100,
        page_location: 'http://localhost/download',
        page_referrer: '',
      },
    ]);
  });
});

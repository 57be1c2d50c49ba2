import { beforeEach, describe, expect, it, vi } from 'vitest';

function entries(): unknown[][] {
  return (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
}

describe('analytics', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubGlobal('window', { dataLayer: [], location: { href: 'http://localhost/download' } });
    vi.stubGlobal('document', { head: { appendChild: vi.fn() }, createElement: () => ({}) });
  });

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

  it('records the download event with the spec label and value', async () => {
    const { trackDownload } = await import('./analytics.ts');
    trackDownload({ operatingSystem: 'Windows', architecture: 'x64', format: 'msi' });
    expect(entries()).toContainEqual([
      'event',
      'downloadCli',
      { event_category: 'download', event_label: 'Windows | x64 | msi', value: 250 },
    ]);
  });

  it('records the contact event with weight 100', async () => {
    const { trackContact } = await import('./analytics.ts');
    trackContact();
    expect(entries()).toContainEqual([
      'event',
      'submitContactForm',
      { event_category: 'contact', value: 100 },
    ]);
  });
});

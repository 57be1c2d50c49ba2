import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_PARAMS,
  sanitizeAnalyticsReferrer,
  sanitizeAnalyticsUrl,
} from './sanitize-analytics-url.ts';

const origin = 'https://orgsmith.example';

describe('sanitizeAnalyticsUrl', () => {
  it('drops tokens, session ids and every parameter not on the list', () => {
    expect(sanitizeAnalyticsUrl(`${origin}/replace-licence-key?token=SECRET`)).toBe(
      `${origin}/replace-licence-key`,
    );
    expect(sanitizeAnalyticsUrl(`${origin}/checkout-success?session_id=cs_test_SECRET`)).toBe(
      `${origin}/checkout-success`,
    );
    expect(
      sanitizeAnalyticsUrl(`${origin}/pricing?email=a@b.c&Token=x&utm_id=1&gclid=2&_gl=3&x=4`),
    ).toBe(`${origin}/pricing`);
  });

  it('keeps the five campaign parameters, the pricing selection and the dialog, in their order', () => {
    const kept =
      'utm_source=news&utm_medium=email&utm_campaign=spring&utm_term=cli&utm_content=top' +
      '&size=10&period=yearly&currency=EUR&plan=Enterprise&modal=trial';
    expect(sanitizeAnalyticsUrl(`${origin}/pricing?token=s&${kept}&session_id=t`)).toBe(
      `${origin}/pricing?${kept}`,
    );
    expect([...ANALYTICS_PARAMS].sort()).toEqual(
      [
        'currency',
        'modal',
        'period',
        'plan',
        'size',
        'utm_campaign',
        'utm_content',
        'utm_medium',
        'utm_source',
        'utm_term',
      ].sort(),
    );
  });

  it('drops the fragment and any credentials, and keeps the path', () => {
    expect(sanitizeAnalyticsUrl(`${origin}/features/toolbox-commands?size=4#frag`)).toBe(
      `${origin}/features/toolbox-commands?size=4`,
    );
    expect(sanitizeAnalyticsUrl('https://user:pass@orgsmith.example/?utm_source=x#a')).toBe(
      `${origin}/?utm_source=x`,
    );
  });

  it('gives nothing for what is not a URL', () => {
    expect(sanitizeAnalyticsUrl('')).toBe('');
    expect(sanitizeAnalyticsUrl('/relative?token=x')).toBe('');
  });
});

describe('sanitizeAnalyticsReferrer', () => {
  it('treats our own pages like the location', () => {
    expect(sanitizeAnalyticsReferrer(`${origin}/replace-licence-key?token=SECRET`, origin)).toBe(
      `${origin}/replace-licence-key`,
    );
    expect(sanitizeAnalyticsReferrer(`${origin}/pricing?size=10&email=a@b.c#x`, origin)).toBe(
      `${origin}/pricing?size=10`,
    );
  });

  it('keeps only the origin of another site', () => {
    expect(
      sanitizeAnalyticsReferrer('https://mail.example/inbox?token=SECRET&utm_source=x', origin),
    ).toBe('https://mail.example/');
    expect(sanitizeAnalyticsReferrer('http://orgsmith.example/?token=x', origin)).toBe(
      'http://orgsmith.example/',
    );
  });

  it('gives nothing for no referrer or one that is not a web page', () => {
    expect(sanitizeAnalyticsReferrer('', origin)).toBe('');
    expect(sanitizeAnalyticsReferrer('android-app://com.mail/secret', origin)).toBe('');
    expect(sanitizeAnalyticsReferrer('not a url', origin)).toBe('');
  });
});

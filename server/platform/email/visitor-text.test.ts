import { describe, expect, it } from 'vitest';
import { visitorTextForEmail } from './visitor-text.ts';

describe('visitorTextForEmail', () => {
  it('keeps an ordinary company name', () => {
    expect(visitorTextForEmail('Müller & Söhne GmbH')).toBe('Müller & Söhne GmbH');
    expect(visitorTextForEmail('PO-77 / 2026')).toBe('PO-77 / 2026');
    expect(visitorTextForEmail('A. B. Smith Ltd.')).toBe('A. B. Smith Ltd.');
  });

  it('drops anything a mail client would link', () => {
    for (const word of [
      'https://evil.example/login',
      'HTTP://evil.example',
      'mailto:x@evil.example',
      'www.evil.example',
      'evil.example',
      'evil.example/path',
      'bob@evil.example',
      'evil。example',
      '//evil.example',
      'javascript:alert(1)',
      'xn--80ak6aa92e.com',
    ]) {
      expect(visitorTextForEmail(`Acme ${word} Ltd`), word).toBe('Acme Ltd');
    }
  });

  it('drops bidi overrides, zero-width and control characters', () => {
    expect(visitorTextForEmail('Acme \u202Eelif\u202C Corp')).toBe('Acme elif Corp');
    expect(visitorTextForEmail('Ac\u200Bme\nCorp\u2066')).toBe('Acme Corp');
    expect(visitorTextForEmail('Acme evil\u200B.example')).toBe('Acme');
  });

  it('leaves nothing out of nothing', () => {
    expect(visitorTextForEmail('https://evil.example')).toBeUndefined();
    expect(visitorTextForEmail('')).toBeUndefined();
    expect(visitorTextForEmail(null)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { linklessVisitorText } from './linkless-visitor-text.ts';

describe('linklessVisitorText (decision 208)', () => {
  it.each([
    ['PO-1 https://evil.example/po', 'PO-1 https[:]//evil[.]example/po'],
    ['see www.evil.example', 'see www[.]evil[.]example'],
    ['evil.example/x', 'evil[.]example/x'],
    ['Booking.com B.V.', 'Booking[.]com B.V.'],
    ['mail support@evil.example', 'mail support[@]evil[.]example'],
    ['mailto:a', 'mailto[:]a'],
    ['javascript:alert(1)', 'javascript[:]alert(1)'],
    ['evil\u200b.example', 'evil[.]example'],
    ['evil。example', 'evil[.]example'],
    ['\u202eexe.txt\u202c', 'exe[.]txt'],
    ['Acme\nLtd\u001b', 'Acme Ltd '],
  ])('%j → %j', (typed, printed) => {
    expect(linklessVisitorText(typed)).toBe(printed);
  });

  it.each([
    'Müller & Söhne S.p.A.',
    'Hauptstraße 1',
    '10115 Berlin',
    'PO: 4711',
    'PO-2026/17',
    'Version 1.5',
    'DE123456789',
  ])('leaves %j as typed', (typed) => {
    expect(linklessVisitorText(typed)).toBe(typed);
  });
});

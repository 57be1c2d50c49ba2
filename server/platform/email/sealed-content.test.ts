import { describe, expect, it } from 'vitest';
import { openContent, sealContent } from './sealed-content.ts';

const secret = 'a-secret-key-of-at-least-thirty-two-characters';
const content = {
  textBody: 'Your key: ORGS-AAAA-BBBB',
  htmlBody: '<p>Your key</p>',
  attachments: [{ filename: 'q.pdf', contentType: 'application/pdf', contentBase64: 'JVBE' }],
};

describe('sealed e-mail content (decision 235)', () => {
  it('opens with the same secret and row id only', () => {
    const sealed = sealContent(secret, 7, content);
    expect(sealed).not.toContain('ORGS');
    expect(openContent(secret, 7, sealed)).toEqual(content);
    expect(openContent(secret, 8, sealed)).toBeUndefined();
    expect(openContent(`${secret}x`, 7, sealed)).toBeUndefined();
    const data = sealed.split('.');
    const body = data[3] ?? '';
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(openContent(secret, 7, [...data.slice(0, 3), flipped].join('.'))).toBeUndefined();
    expect(openContent(secret, 7, 'v0.x.y.z')).toBeUndefined();
  });
});

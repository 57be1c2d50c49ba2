import { describe, expect, it } from 'vitest';
import { emailDomainOf, invoiceOrderCapOf, isFreeMailDomain } from './invoice-order-cap.ts';

describe('invoiceOrderCapOf (decision 209)', () => {
  it.each([
    'gmail.com',
    'googlemail.com',
    'outlook.com',
    'hotmail.com',
    'hotmail.co.uk',
    'yahoo.fr',
    'yahoo.co.jp',
    'icloud.com',
    'gmx.de',
    'gmx.net',
    'web.de',
    'proton.me',
  ])('%s is free mail', (domain) => {
    expect(isFreeMailDomain(domain)).toBe(true);
  });

  it.each(['acme.example', 'acme.co.uk', 'mailbox-io.test', 'gmail.example.com'])(
    '%s is a company domain',
    (domain) => {
      expect(isFreeMailDomain(domain)).toBe(false);
    },
  );

  it('caps a free-mail address on its own, a company address with its domain', () => {
    expect(invoiceOrderCapOf('jane@gmail.com')).toEqual({
      lockKey: 'jane@gmail.com',
      domain: 'gmail.com',
      perDomain: false,
    });
    expect(invoiceOrderCapOf('jane@mail.hotmail.co.uk')).toMatchObject({
      lockKey: 'jane@mail.hotmail.co.uk',
      perDomain: false,
    });
    expect(invoiceOrderCapOf('ap@x1.acme.example')).toEqual({
      lockKey: 'acme.example',
      domain: 'acme.example',
      perDomain: true,
    });
  });
});

describe('emailDomainOf', () => {
  it('is the registrable domain after the last @ of a normalized address', () => {
    expect(emailDomainOf('finance@acme.example')).toBe('acme.example');
    expect(emailDomainOf('"a@b"@acme.example')).toBe('acme.example');
    expect(emailDomainOf('a@acme.example.')).toBe('acme.example');
  });
  it('puts the subdomains of one domain under one cap', () => {
    expect(emailDomainOf('a@x1.catchall.example')).toBe('catchall.example');
    expect(emailDomainOf('a@deep.x2.catchall.example')).toBe('catchall.example');
    expect(emailDomainOf('a@mail.acme.co.uk')).toBe('acme.co.uk');
    expect(emailDomainOf('a@acme.co.uk')).toBe('acme.co.uk');
    expect(emailDomainOf('a@shop.acme.de')).toBe('acme.de');
  });
});

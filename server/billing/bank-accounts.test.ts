import { describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import {
  formatIban,
  ibanChecksumValid,
  invoiceCurrencies,
  missingBankAccountsNotice,
  readBankAccountSetting,
} from './bank-accounts.ts';

describe('the seller’s bank accounts (decision 218)', () => {
  it('passes IBANs whose mod-97 check holds and fails one wrong character or swap', () => {
    expect(ibanChecksumValid('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(ibanChecksumValid('GB33BUKB20201555555555')).toBe(true);
    expect(ibanChecksumValid('de89370400440532013000')).toBe(true);
    // One digit changed, two digits swapped, too short, not an IBAN.
    expect(ibanChecksumValid('DE89 3704 0044 0532 0130 01')).toBe(false);
    expect(ibanChecksumValid('DE89 3704 0044 0532 0103 00')).toBe(false);
    expect(ibanChecksumValid('DE89 3704')).toBe(false);
    expect(ibanChecksumValid('hello world')).toBe(false);
    expect(formatIban('de89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
  });

  it('reads "holder; IBAN; BIC; bank" or none from the variable, else the site config', () => {
    expect(
      readBankAccountSetting(
        'EUR',
        'Acme GmbH; de89 3704 0044 0532 0130 00; cobadeff; Commerzbank',
      ),
    ).toEqual({
      ok: true,
      account: {
        holder: 'Acme GmbH',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFF',
        bank: 'Commerzbank',
      },
    });
    expect(readBankAccountSetting('USD', 'none')).toEqual({ ok: true, account: null });
    expect(readBankAccountSetting('USD', undefined, {})).toEqual({ ok: true, account: null });
    expect(readBankAccountSetting('EUR', undefined)).toMatchObject({
      ok: true,
      account: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    });
  });

  it('refuses a wrong IBAN, BIC, holder or shape with the reason', () => {
    const refused = (value: string) => readBankAccountSetting('EUR', value);
    expect(refused('Acme; DE89 3704 0044 0532 0130 01; COBADEFF; Bank')).toMatchObject({
      ok: false,
      message: expect.stringContaining('mod-97'),
    });
    expect(refused('Acme; DE89 3704 0044 0532 0130 00; COBA1EFF; Bank')).toMatchObject({
      ok: false,
      message: expect.stringContaining('BIC must be 8 or 11 characters'),
    });
    expect(refused(' ; DE89 3704 0044 0532 0130 00; COBADEFF; Bank')).toMatchObject({
      ok: false,
      message: expect.stringContaining('holder must not be empty'),
    });
    expect(refused('DE89 3704 0044 0532 0130 00')).toMatchObject({
      ok: false,
      message: expect.stringContaining('four parts'),
    });
    // A bad entry in the site config itself is named as such.
    expect(
      readBankAccountSetting('EUR', undefined, {
        EUR: { holder: 'A', iban: 'DE00', bic: 'COBADEFF', bank: 'B' },
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('shared/site-config.ts') });
  });

  it('stops the start on a bad value, naming the variable; none withdraws pay by invoice in it', () => {
    expect(() =>
      parseEnv({ BANK_ACCOUNT_USD: 'Acme; GB33 BUKB 2020 1555 5555 56; BUKBGB22; Barclays' }),
    ).toThrow(/BANK_ACCOUNT_USD: iban IBAN fails its mod-97 check/);
    const env = parseEnv({ BANK_ACCOUNT_USD: 'none' });
    expect(Object.keys(env.bankAccounts)).toEqual(['EUR']);
    expect(invoiceCurrencies(env.bankAccounts)).toEqual(['EUR']);
    expect(missingBankAccountsNotice(env.bankAccounts)).toBe(
      'pay by invoice is not offered in USD: no bank account to pay into (set BANK_ACCOUNT_USD; the published example IBANs are refused on a public origin)',
    );
    const both = parseEnv({});
    expect(invoiceCurrencies(both.bankAccounts)).toEqual(['USD', 'EUR']);
    expect(missingBankAccountsNotice(both.bankAccounts)).toBeNull();
  });
});

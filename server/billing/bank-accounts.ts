import { z } from 'zod';
import { currencies, type Currency } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';

/**
 * The seller's bank accounts, one per invoice currency (decision 218): printed on every invoice
 * with its number as the one payment reference. `shared/site-config.ts` holds them; a deployment
 * replaces one with `BANK_ACCOUNT_EUR` / `BANK_ACCOUNT_USD` ("holder; IBAN; BIC; bank") or
 * withdraws it with `none`, and then offers no pay by invoice in that currency.
 */

/** ISO 13616: country, two check digits, 11–30 letters and digits (the longest IBAN has 34). */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
/** ISO 9362: bank (4 letters), country (2 letters), location (2), optional branch (3). */
const BIC_SHAPE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** The IBAN without spaces, upper case. */
export function compactIban(iban: string): string {
  return iban.replace(/\s+/g, '').toUpperCase();
}

/** The ISO 7064 mod-97 check of an IBAN: its four first characters moved to the end, letters as 10–35, the number modulo 97 is 1. */
export function ibanChecksumValid(iban: string): boolean {
  const compact = compactIban(iban);
  if (!IBAN_SHAPE.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const value = Number.parseInt(character, 36);
    // Letters are two digits, digits one: fold them in digit by digit.
    for (const digit of String(value)) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** An IBAN in groups of four, as it is printed (`DE89 3704 0044 0532 0130 00`). */
export function formatIban(iban: string): string {
  return (
    compactIban(iban)
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !/[\p{Cc}\p{Cf}]/u.test(value), 'must be one line of plain text');

export const bankAccountSchema = z.object({
  /** The account holder as the bank knows it (SEPA allows 70 characters). */
  holder: text(70),
  iban: z
    .string()
    .transform(compactIban)
    .refine(
      (iban) => IBAN_SHAPE.test(iban),
      'IBAN must be a country code, two check digits and 11–30 letters or digits',
    )
    .refine(ibanChecksumValid, 'IBAN fails its mod-97 check: a character is wrong'),
  bic: z
    .string()
    .transform((bic) => bic.replace(/\s+/g, '').toUpperCase())
    .refine(
      (bic) => BIC_SHAPE.test(bic),
      'BIC must be 8 or 11 characters: bank, country, location, branch',
    ),
  bank: text(70),
});

export type BankAccount = z.output<typeof bankAccountSchema>;
export type BankAccounts = Partial<Record<Currency, BankAccount>>;

/** The environment variable that sets a currency's account. */
export function bankAccountVariable(currency: Currency): string {
  return `BANK_ACCOUNT_${currency}`;
}

export type BankAccountSetting =
  { ok: true; account: BankAccount | null } | { ok: false; message: string };

/**
 * One currency's account from its variable (`holder; IBAN; BIC; bank`, or `none`), else from the
 * site config; a value or a site-config entry that fails its checks is refused with the reason.
 */
export function readBankAccountSetting(
  currency: Currency,
  value: string | undefined,
  configured: Partial<Record<Currency, unknown>> = siteConfig.bankAccounts,
): BankAccountSetting {
  let candidate: unknown;
  if (value === undefined) {
    candidate = configured[currency];
    if (candidate === undefined) return { ok: true, account: null };
  } else if (value.trim().toLowerCase() === 'none') {
    return { ok: true, account: null };
  } else {
    const parts = value.split(';').map((part) => part.trim());
    if (parts.length !== 4) {
      return {
        ok: false,
        message: 'must be "holder; IBAN; BIC; bank" (four parts separated by ;) or none',
      };
    }
    const [holder, iban, bic, bank] = parts;
    candidate = { holder, iban, bic, bank };
  }
  const parsed = bankAccountSchema.safeParse(candidate);
  if (!parsed.success) {
    const where = value === undefined ? 'shared/site-config.ts bankAccounts: ' : '';
    return {
      ok: false,
      message: `${where}${parsed.error.issues.map((issue) => `${String(issue.path[0] ?? '')} ${issue.message}`.trim()).join('; ')}`,
    };
  }
  return { ok: true, account: parsed.data };
}

/**
 * IBANs banks and the IBAN registry publish as examples (the site config ships two of them):
 * printed on a real invoice they would send a buyer's money to an account that is not ours.
 */
const EXAMPLE_IBANS = new Set([
  'DE89370400440532013000',
  'GB33BUKB20201555555555',
  'GB29NWBK60161331926819',
  'GB82WEST12345698765432',
  'FR1420041010050500013M02606',
  'AT611904300234573201',
  'NL91ABNA0417164300',
]);

/** Whether an IBAN is one of the published examples, never a real account to pay into. */
export function isExampleIban(iban: string): boolean {
  return EXAMPLE_IBANS.has(compactIban(iban));
}

/** The currencies pay by invoice is offered in: those with an account to pay into. */
export function invoiceCurrencies(accounts: BankAccounts): Currency[] {
  return currencies.filter((currency) => accounts[currency] !== undefined);
}

/** The start-up line of a deployment that offers no pay by invoice in some currency; null if it offers it in all. */
export function missingBankAccountsNotice(accounts: BankAccounts): string | null {
  const missing = currencies.filter((currency) => accounts[currency] === undefined);
  if (missing.length === 0) return null;
  return `pay by invoice is not offered in ${missing.join(' or ')}: no bank account to pay into (set ${missing.map(bankAccountVariable).join(', ')}; the published example IBANs are refused on a public origin)`;
}

/** The refusal of an invoice order in a currency without an account. */
export function noBankAccountMessage(currency: Currency): string {
  return `Pay by invoice is not offered in ${currency}: pay by card, or write to ${siteConfig.salesEmail}.`;
}

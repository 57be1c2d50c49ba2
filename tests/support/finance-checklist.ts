import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

/**
 * The finance reviewer's checklist (issue 39) as code: what accounts payable and the accountant
 * look for before they book or pay a document, checked against the text of its PDF as poppler's
 * `pdftotext -layout` reads it. Each check has a name; `financeChecklist` returns the names and
 * reasons of those that fail, `expectFinanceChecklist` fails a test with all of them at once.
 *
 * The facts are what the document must say, written by the test from what was ordered — never
 * read back from the document under review.
 */

export interface PartyFacts {
  name: string;
  /** Each line of the address as printed (street, postal code and city, country by name). */
  addressLines: readonly string[];
  vatId?: string | null | undefined;
}

export type TaxNote = 'german-vat' | 'reverse-charge' | 'not-taxable';

export interface DocumentFacts {
  kind: 'invoice' | 'receipt' | 'credit-note';
  number: string;
  /** `YYYY-MM-DD`. */
  issuedOn: string;
  servicePeriod: { from: string; to: string };
  seller: PartyFacts & { vatId: string };
  buyer: PartyFacts;
  /** Amounts as printed, e.g. `€13,046.00`; the reviewer also checks that net + VAT = gross. */
  net: string;
  vat: string;
  gross: string;
  vatRatePercent: number;
  taxNote: TaxNote;
  /** The reverse charge rests on VIES's confirmation: its consultation number is printed. */
  viesConsultationNumber?: string | undefined;
  /** German VAT in another currency: the VAT in EUR, the rate and the rate's day and source. */
  vatInEur?: { amount: string; perEur: string; currency: string; rateOn: string } | undefined;
  /** An invoice to be paid by transfer names the account to pay to. */
  bankDetails?: { accountHolder: string; iban: string; bic: string } | undefined;
  /** A credit note names the invoice it corrects. */
  credits?: string | undefined;
}

export interface ChecklistOptions {
  /**
   * Check the bank details an invoice must name (account holder, IBAN, BIC). Off until invoices
   * print them (issue 39, item 1): then every invoice test turns it on.
   */
  checkBankDetails?: boolean;
}

export interface ChecklistFailure {
  check: string;
  reason: string;
}

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'finance-checklist-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, bytes);
    return (await promisify(execFile)('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whitespace (columns, line breaks) as single spaces, so a label and its value read as one. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `text` with any whitespace between its words. */
const loose = (text: string) => new RegExp(flat(text).split(' ').map(escape).join('\\s+'));

/** `€13,046.00` or `$1,409.40` as cents; NaN when it is not an amount. */
function cents(amount: string): number {
  const match = /^-?[€$]?(-?)[€$]?([\d,]+)\.(\d{2})$/.exec(amount.trim());
  if (!match) return Number.NaN;
  const sign = amount.trim().startsWith('-') || match[1] === '-' ? -1 : 1;
  return sign * (Number((match[2] ?? '').replaceAll(',', '')) * 100 + Number(match[3]));
}

export function financeChecklist(
  text: string,
  facts: DocumentFacts,
  options: ChecklistOptions = {},
): ChecklistFailure[] {
  const failures: ChecklistFailure[] = [];
  const page = flat(text);
  const has = (check: string, wanted: string | RegExp, what = String(wanted)) => {
    const found = typeof wanted === 'string' ? loose(wanted).test(page) : wanted.test(page);
    if (!found) failures.push({ check, reason: `does not say ${what}` });
  };
  const hasNot = (check: string, unwanted: RegExp, what: string) => {
    if (unwanted.test(page)) failures.push({ check, reason: `says ${what}` });
  };
  const title = { invoice: 'Invoice', receipt: 'Receipt', 'credit-note': 'Credit note' }[
    facts.kind
  ];

  // Seller: name, address and VAT ID (§ 14 (4) no. 1 and 2 UStG).
  has('seller name', facts.seller.name);
  for (const line of facts.seller.addressLines) has('seller address', line);
  has('seller VAT ID', new RegExp(`VAT ID:?\\s*${escape(facts.seller.vatId)}`), facts.seller.vatId);

  // Buyer: name and address; its VAT ID when it has one (required for the reverse charge).
  has('buyer name', facts.buyer.name);
  for (const line of facts.buyer.addressLines) has('buyer address', line);
  if (facts.buyer.vatId) {
    has('buyer VAT ID', new RegExp(`VAT ID:?\\s*${escape(facts.buyer.vatId)}`), facts.buyer.vatId);
  }

  // Number and dates: the unique number, the issue date, the service period.
  has('document type', new RegExp(`\\b${title}\\b`), title);
  // The facts beside the title are drawn as two columns, which pdftotext may read label-first:
  // a fact counts when its label and its value both stand in that block.
  const factsBlock = flat(text.slice(0, text.indexOf('BILLED TO') >>> 0));
  const fact = (check: string, label: string, value: string) => {
    const labelled = new RegExp(`${escape(label)}:?\\s`).test(factsBlock);
    if (!labelled || !new RegExp(`(^|\\s)${escape(value)}(\\s|$)`).test(factsBlock)) {
      failures.push({ check, reason: `does not say ${label}: ${value}` });
    }
  };
  fact('number', `${title} number`, facts.number);
  fact('issue date', 'Date', facts.issuedOn);
  has('service period', `Service period ${facts.servicePeriod.from} to ${facts.servicePeriod.to}`);

  // Net, VAT and gross, and that they add up.
  has('net', new RegExp(`\\bNet\\s+${escape(facts.net)}`), `Net ${facts.net}`);
  const vatLabel =
    facts.taxNote === 'german-vat'
      ? `VAT ${facts.vatRatePercent} %`
      : facts.taxNote === 'reverse-charge'
        ? 'VAT 0 % (reverse charge)'
        : 'VAT 0 % (not taxable in Germany)';
  has('VAT', new RegExp(`${escape(vatLabel)}\\s+${escape(facts.vat)}`), `${vatLabel} ${facts.vat}`);
  const grossLabel =
    facts.kind === 'receipt'
      ? 'Total paid'
      : facts.kind === 'invoice'
        ? 'Total due'
        : 'Total credited';
  has(
    'gross',
    new RegExp(`${grossLabel}\\s+${escape(facts.gross)}`),
    `${grossLabel} ${facts.gross}`,
  );
  if (cents(facts.net) + cents(facts.vat) !== cents(facts.gross)) {
    failures.push({
      check: 'net + VAT = gross',
      reason: `${facts.net} + ${facts.vat} is not ${facts.gross}`,
    });
  }

  // The tax note: why this VAT (or none) is charged.
  switch (facts.taxNote) {
    case 'german-vat':
      if (facts.vatRatePercent !== 19) {
        failures.push({
          check: 'tax note',
          reason: `German VAT is 19 %, not ${facts.vatRatePercent} %`,
        });
      }
      hasNot('tax note', /reverse charge|not taxable in Germany/i, 'it charges no German VAT');
      break;
    case 'reverse-charge':
      has(
        'tax note',
        'Reverse charge: no VAT is charged. VAT is to be accounted for by the recipient',
      );
      has('tax note', 'Article 196, Council Directive 2006/112/EC');
      if (!facts.buyer.vatId)
        failures.push({ check: 'tax note', reason: 'a reverse charge needs the buyer’s VAT ID' });
      else has('tax note', `VAT ID ${facts.buyer.vatId} confirmed by VIES on`);
      if (facts.viesConsultationNumber) {
        has('tax note', `consultation number ${facts.viesConsultationNumber}`);
      }
      break;
    case 'not-taxable':
      has('tax note', 'Not taxable in Germany');
      has('tax note', '§ 3a (2) UStG');
      break;
  }
  if (facts.taxNote !== 'german-vat' && cents(facts.vat) !== 0) {
    failures.push({ check: 'tax note', reason: `no German VAT is due, yet VAT is ${facts.vat}` });
  }

  // German VAT in another currency is also stated in EUR, at a named rate of a named day.
  if (facts.vatInEur) {
    const { amount, perEur, currency, rateOn } = facts.vatInEur;
    has(
      'VAT in EUR',
      `VAT in EUR: ${amount} at 1 EUR = ${perEur} ${currency}, ECB reference rate of ${rateOn}`,
    );
  } else if (facts.taxNote === 'german-vat' && !facts.gross.startsWith('€')) {
    failures.push({
      check: 'VAT in EUR',
      reason: 'German VAT in another currency needs its amount in EUR',
    });
  }

  // Bank details: an invoice paid by transfer names the account (opt-in, see ChecklistOptions).
  if (facts.kind === 'invoice' && options.checkBankDetails) {
    const bank = facts.bankDetails;
    if (!bank) {
      failures.push({ check: 'bank details', reason: 'the facts name no account to check' });
    } else {
      has('bank details', bank.accountHolder);
      const compact = page.replace(/\s+/g, '');
      if (!compact.includes(bank.iban.replace(/\s+/g, ''))) {
        failures.push({ check: 'bank details', reason: `does not say IBAN ${bank.iban}` });
      }
      has('bank details', bank.bic);
      has('bank details', /\bIBAN\b/, 'IBAN');
      has('bank details', /\bBIC\b/, 'BIC');
    }
  }

  if (facts.kind === 'credit-note') {
    if (!facts.credits)
      failures.push({ check: 'corrected invoice', reason: 'the facts name no invoice' });
    else has('corrected invoice', facts.credits);
  }
  return failures;
}

/** Fails the test with every failed check of the checklist, and the text it read. */
export function expectFinanceChecklist(
  text: string,
  facts: DocumentFacts,
  options: ChecklistOptions = {},
): void {
  const failures = financeChecklist(text, facts, options);
  expect(failures, `${facts.number} fails the finance checklist; its text:\n${text}`).toEqual([]);
}

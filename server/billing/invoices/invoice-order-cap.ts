/**
 * Whose orders by invoice count together (docs/product-rules.md#behaviour, decisions 153, 209).
 * A company's own domain is one buyer: its confirmed unpaid orders are capped together, so
 * rotating mailboxes at a catch-all domain gets no further. A free-mail domain is millions of
 * strangers: there the cap is the address's own, so three gmail.com customers cannot shut out
 * every other one.
 */

/** Second-level labels under which country domains register names (`co.uk`, `com.au`, …). */
const secondLevelSuffixes = new Set([
  'ac',
  'co',
  'com',
  'edu',
  'gov',
  'ltd',
  'ne',
  'net',
  'or',
  'org',
  'plc',
]);

/**
 * The domain the per-domain cap counts (decision 153): the registrable domain of the address,
 * roughly — its last two labels, or three under a country's `co.uk`-like suffix — so that
 * subdomains of one catch-all domain (`a@x.example.com`, `a@y.example.com`) share one cap.
 */
export function emailDomainOf(normalizedAddress: string): string {
  const host = normalizedAddress.slice(normalizedAddress.lastIndexOf('@') + 1).replace(/\.$/, '');
  const labels = host.split('.');
  const country = labels.at(-1) ?? '';
  const second = labels.at(-2) ?? '';
  const keep = country.length === 2 && secondLevelSuffixes.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** Free-mail and consumer providers, as `emailDomainOf` gives them: anyone may have a mailbox. */
const FREE_MAIL_DOMAINS = new Set([
  '126.com',
  '163.com',
  'arcor.de',
  'att.net',
  'bigpond.com',
  'bluewin.ch',
  'btinternet.com',
  'comcast.net',
  'fastmail.com',
  'free.fr',
  'freenet.de',
  'gmail.com',
  'googlemail.com',
  'hey.com',
  'icloud.com',
  'interia.pl',
  'laposte.net',
  'libero.it',
  'mac.com',
  'mail.com',
  'mail.ru',
  'mailbox.org',
  'me.com',
  'naver.com',
  'o2.pl',
  'onet.pl',
  'orange.fr',
  'pm.me',
  'posteo.de',
  'proton.me',
  'protonmail.ch',
  'protonmail.com',
  'qq.com',
  'rediffmail.com',
  'seznam.cz',
  't-online.de',
  'tuta.io',
  'tutanota.com',
  'verizon.net',
  'web.de',
  'wp.pl',
  'yandex.com',
  'yandex.ru',
  'zoho.com',
]);

/** Providers with a domain in many countries: `hotmail.co.uk`, `yahoo.fr`, `gmx.net`, … */
const FREE_MAIL_FAMILIES = new Set([
  'aol',
  'gmx',
  'hotmail',
  'live',
  'msn',
  'outlook',
  'yahoo',
  'ymail',
]);

/** Whether the registrable domain (`emailDomainOf`) is a free-mail or consumer provider's. */
export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL_DOMAINS.has(domain) || FREE_MAIL_FAMILIES.has(domain.split('.')[0] ?? '');
}

/**
 * Where the caps of one address's orders are counted and serialised: at a company domain, the
 * domain (its confirmed unpaid orders are capped together); at a free-mail domain, the address
 * alone (no domain cap; one open order per address, as everywhere).
 */
export interface InvoiceOrderCap {
  /** What `lock` serialises: the domain, or at a free-mail domain the address. */
  lockKey: string;
  /** Stored with the order (`email_domain`), counted when `perDomain`. */
  domain: string;
  perDomain: boolean;
}

export function invoiceOrderCapOf(normalizedAddress: string): InvoiceOrderCap {
  const domain = emailDomainOf(normalizedAddress);
  // A domain has no `@`, an address has one: the two kinds of lock key never meet.
  return isFreeMailDomain(domain)
    ? { lockKey: normalizedAddress, domain, perDomain: false }
    : { lockKey: domain, domain, perDomain: true };
}

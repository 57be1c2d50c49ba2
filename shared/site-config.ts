/** The external addresses of docs/product-rules.md#pages: documentation, blog, app, registries, social profiles. */
const links = {
  docs: 'https://docs.orgsmith.io',
  blog: 'https://blog.orgsmith.io',
  app: 'https://app.orgsmith.io',
  communityChat: 'https://community.orgsmith.io',
  containerRegistry: 'https://hub.docker.com/r/orgsmith/cli',
  dockerImage: 'orgsmith/cli',
  ciMarketplaceAction: 'https://github.com/marketplace/actions/setup-orgsmith',
  setupAction: 'orgsmith/setup-orgsmith@v1',
  demoRepository: 'https://github.com/orgsmith/orgsmith-demo',
  github: 'https://github.com/orgsmith',
  linkedIn: 'https://www.linkedin.com/company/orgsmith',
  youTube: 'https://www.youtube.com/@orgsmith',
} as const;

/**
 * Every brand fact of Orgsmith in one place: the site, the e-mails and the account service read
 * them from here. Change a fact here and it changes everywhere.
 */
export const siteConfig = {
  productName: 'Orgsmith',
  cliName: 'orgsmith',
  tagline: 'Salesforce DevOps from the command line',
  /** The fixed product id of the command-line tool, sent with every trial request. */
  productId: 'orgsmith-cli',
  company: {
    name: 'Orgsmith GmbH',
    street: 'Speicherstraße 14',
    postalCode: '20457',
    city: 'Hamburg',
    country: 'Germany',
    countryDe: 'Deutschland',
    managingDirector: 'Jana Albrecht',
    registerCourt: 'Amtsgericht Hamburg',
    registerCourtEn: 'Local Court of Hamburg',
    registerNumber: 'HRB 171234',
    vatId: 'DE318765432',
    phone: '+49 40 5555 0190',
    /** Where the company keeps its calendar: quote dates and numbering years (decision 142). */
    timeZone: 'Europe/Berlin',
  },
  /**
   * The company's bank accounts per invoice currency, printed on every invoice with the invoice
   * number as the payment reference (decision 218). A deployment replaces one with
   * `BANK_ACCOUNT_EUR` / `BANK_ACCOUNT_USD` ("holder; IBAN; BIC; bank") or withdraws it with
   * `none`; without an account pay by invoice is not offered in that currency. Checked at start
   * (IBAN mod-97, BIC format). These are the banks' published example IBANs: set the real ones.
   */
  bankAccounts: {
    EUR: {
      holder: 'Orgsmith GmbH',
      iban: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
      bank: 'Commerzbank',
    },
    USD: {
      holder: 'Orgsmith GmbH',
      iban: 'GB33 BUKB 2020 1555 5555 55',
      bic: 'BUKBGB22',
      bank: 'Barclays Bank',
    },
  },
  supportEmail: 'support@orgsmith.io',
  salesEmail: 'hello@orgsmith.io',
  /** Where vulnerabilities are reported: SECURITY.md, /.well-known/security.txt, the support page. */
  securityEmail: 'security@orgsmith.io',
  /**
   * security.txt's `Expires` unless SECURITY_TXT_EXPIRES says otherwise: a fixed date, renewed
   * by hand with the policy (the server warns 30 days before, decision 160).
   */
  securityTxtExpires: '2027-05-31T00:00:00Z',
  /** What we promise a reporter (SECURITY.md and the support page say the same). */
  vulnerabilityDisclosure: {
    acknowledgeBusinessDays: 2,
    assessBusinessDays: 10,
    disclosureDays: 90,
  },
  mailFrom: 'Orgsmith <no-reply@orgsmith.io>',
  defaultDownloadBaseUrl: 'https://downloads.orgsmith.io/cli',
  links,
  /** Social profiles, in the order the footer lists them. */
  social: [
    { label: 'GitHub', href: links.github },
    { label: 'LinkedIn', href: links.linkedIn },
    { label: 'YouTube', href: links.youTube },
  ],
  /** How the CLI runs unattended (CI, Docker); the download page and the CI feature page show these. */
  ci: {
    /** Input of the GitHub Actions setup action that takes the licence key. */
    licenseKeyInput: 'license-key',
    /** Environment variable that accepts the EULA, so a run without a terminal does not stop to ask. */
    eulaAcceptanceVariable: 'ORGSMITH_ACCEPT_EULA',
    /** Environment variable the CLI reads the licence key from (a developer's computer). */
    licenseKeyVariable: 'ORGSMITH_LICENSE_KEY',
    /**
     * The CLI's argument for an access token, which replaced the licence-key arguments in 3.2.1:
     * how pipelines authenticate (decision 217). The licence e-mails and every CI example use it.
     */
    accessTokenArgument: '--access-token',
    /** The CI secret the examples keep an access token in (a name the team chooses). */
    accessTokenSecret: 'ORGSMITH_ACCESS_TOKEN',
    dockerPlatforms: ['linux/amd64', 'linux/arm64'],
  },
} as const;

export type SiteConfig = typeof siteConfig;

export const supportMailto = `mailto:${siteConfig.supportEmail}`;

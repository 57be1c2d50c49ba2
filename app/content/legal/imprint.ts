import { siteConfig } from '#shared/site-config.ts';

const { company, salesEmail, supportEmail } = siteConfig;

export interface ImprintLine {
  label?: string;
  value: string;
  href?: string;
}

export interface ImprintGroup {
  heading: string;
  lines: readonly ImprintLine[];
}

export interface ImprintVersion {
  key: 'en' | 'de';
  /** Tab label, in the language of the version. */
  label: string;
  lang: 'en' | 'de';
  heading: string;
  groups: readonly ImprintGroup[];
}

const phoneHref = `tel:${company.phone.replaceAll(' ', '')}`;

/** The legal notice (Impressum) in English and German, built from the company facts of the site config. */
export const imprint: readonly ImprintVersion[] = [
  {
    key: 'en',
    label: 'English',
    lang: 'en',
    heading: 'Information pursuant to § 5 of the German Digital Services Act (DDG)',
    groups: [
      {
        heading: 'Company',
        lines: [
          { value: company.name },
          { value: company.street },
          { value: `${company.postalCode} ${company.city}` },
          { value: company.country },
        ],
      },
      {
        heading: 'Represented by',
        lines: [{ label: 'Managing director', value: company.managingDirector }],
      },
      {
        heading: 'Contact',
        lines: [
          { label: 'Phone', value: company.phone, href: phoneHref },
          { label: 'E-mail', value: salesEmail, href: `mailto:${salesEmail}` },
          { label: 'Support', value: supportEmail, href: `mailto:${supportEmail}` },
        ],
      },
      {
        heading: 'Commercial register',
        lines: [
          {
            label: 'Register court',
            value: `${company.registerCourtEn} (${company.registerCourt})`,
          },
          { label: 'Register number', value: company.registerNumber },
        ],
      },
      {
        heading: 'VAT',
        lines: [
          {
            label: 'VAT identification number under § 27a of the German VAT Act',
            value: company.vatId,
          },
        ],
      },
      {
        heading: 'Responsible for the content under § 18(2) MStV',
        lines: [
          { value: company.managingDirector },
          { value: `${company.street}, ${company.postalCode} ${company.city}, ${company.country}` },
        ],
      },
      {
        heading: 'Dispute resolution',
        lines: [
          {
            value:
              'Our offer is directed exclusively at businesses. We are neither willing nor obliged to take part in dispute resolution proceedings before a consumer arbitration board.',
          },
        ],
      },
    ],
  },
  {
    key: 'de',
    label: 'Deutsch',
    lang: 'de',
    heading: 'Angaben gemäß § 5 Digitale-Dienste-Gesetz (DDG)',
    groups: [
      {
        heading: 'Unternehmen',
        lines: [
          { value: company.name },
          { value: company.street },
          { value: `${company.postalCode} ${company.city}` },
          { value: company.countryDe },
        ],
      },
      {
        heading: 'Vertreten durch',
        lines: [{ label: 'Geschäftsführung', value: company.managingDirector }],
      },
      {
        heading: 'Kontakt',
        lines: [
          { label: 'Telefon', value: company.phone, href: phoneHref },
          { label: 'E-Mail', value: salesEmail, href: `mailto:${salesEmail}` },
          { label: 'Support', value: supportEmail, href: `mailto:${supportEmail}` },
        ],
      },
      {
        heading: 'Registereintrag',
        lines: [
          { label: 'Registergericht', value: company.registerCourt },
          { label: 'Registernummer', value: company.registerNumber },
        ],
      },
      {
        heading: 'Umsatzsteuer',
        lines: [
          {
            label: 'Umsatzsteuer-Identifikationsnummer gemäß § 27a Umsatzsteuergesetz',
            value: company.vatId,
          },
        ],
      },
      {
        heading: 'Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV',
        lines: [
          { value: company.managingDirector },
          {
            value: `${company.street}, ${company.postalCode} ${company.city}, ${company.countryDe}`,
          },
        ],
      },
      {
        heading: 'Streitbeilegung',
        lines: [
          {
            value:
              'Unser Angebot richtet sich ausschließlich an Unternehmen. Wir sind weder bereit noch verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.',
          },
        ],
      },
    ],
  },
];

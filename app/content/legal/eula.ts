import { priceConfig } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { list, paragraph, type LegalDocument } from '#app/components/content/legal-document.ts';

const { company, productName, cliName, supportEmail } = siteConfig;
const address = `${company.street}, ${company.postalCode} ${company.city}, ${company.country}`;

/** Where the build writes the PDF of this EULA (under build/client) and where the page links to it. */
export const eulaPdfPath = `/eula/${cliName}-cli-eula-v1.pdf`;

/** The End User License Agreement of the CLI, version 1 (docs/product-rules.md#behaviour, #validation, #permissions, #constants). */
export const eula: LegalDocument = {
  title: 'End User License Agreement',
  subtitle: `for the ${productName} command-line tool`,
  version: 1,
  date: '2021-07-31',
  intro: [
    paragraph(
      `This End User License Agreement (the “Agreement”) is made between ${company.name}, ${address} (“we”, “us”) and the company that obtains a licence key for the ${productName} command-line tool (the “Licensee”). It governs every use of the command-line tool, including its installers, archives, Docker images and the GitHub Actions setup action (together the “Software”).`,
    ),
    paragraph(
      'By requesting a licence key, downloading or using the Software, the person doing so confirms that they are authorised to act for the Licensee and accepts this Agreement on its behalf. Unattended installations, for example in CI pipelines, accept it by setting the acceptance variable described in the documentation.',
    ),
  ],
  sections: [
    {
      id: 'business-customers',
      heading: 'Business customers only',
      blocks: [
        paragraph(
          'The Software is offered exclusively to businesses, public bodies and other organisations for use in their commercial or professional activity. It is not offered to consumers.',
        ),
      ],
    },
    {
      id: 'licence-grant',
      heading: 'Licence grant',
      blocks: [
        paragraph(
          'Subject to this Agreement and a valid licence key, we grant the Licensee a non-exclusive, non-transferable right, limited to the term of the licence, to install and use the Software on any number of machines for the Licensee’s own business purposes.',
        ),
        paragraph('The licence is granted per company. It may be used by:'),
        list(
          'the Licensee’s employees;',
          'the Licensee’s affiliates, meaning companies that control, are controlled by or are under common control with the Licensee;',
          'contractors working on the Licensee’s behalf, for the Licensee’s own Salesforce orgs.',
        ),
        paragraph(
          'Consultants, agencies and other service providers may not use one licence for several clients. Each client needs a licence of its own, held either by the client or by the service provider for that client alone.',
        ),
      ],
    },
    {
      id: 'licence-key',
      heading: 'Licence key',
      blocks: [
        paragraph(
          'Every use of the Software requires a valid licence key. The Software checks the key and does not run without one. Licence keys are sent by e-mail to the address given when the licence was requested or purchased.',
        ),
        paragraph(
          'The Licensee keeps its licence key confidential and shares it only with the persons allowed to use the licence under section 2, for example through a secret store of its CI system. If a key is disclosed to unauthorised persons, we may block it and issue a replacement.',
        ),
      ],
    },
    {
      id: 'licence-types',
      heading: 'Licence types',
      blocks: [
        paragraph('There are three types of licence: Trial, Free and Paid.'),
        list(
          'Trial: a licence free of charge for two months, without limits on features, orgs or stacks. A trial is issued only to a valid e-mail address that has not been used for any earlier licence. It ends automatically after two months. When a subscription is bought with the same e-mail address, the trial converts to a Paid licence.',
          'Free (Starter Edition): a licence free of charge and without time limit for one stack and up to 2 Salesforce orgs.',
          'Paid (Pro and Enterprise): a subscription for the edition and the number of Salesforce orgs chosen at purchase. Pro and Enterprise include metadata rollback, Apex test automation and the toolbox commands; Enterprise also includes branch switching and the support service level of section 11.',
        ),
        paragraph(
          'Licences are priced per Salesforce org, not per user. An org counts towards a licence while it is part of an environment of any stack used with that licence.',
        ),
      ],
    },
    {
      id: 'fees',
      heading: 'Fees and payment',
      blocks: [
        paragraph(
          'Fees for Paid licences are those shown on our pricing page at the time of purchase, plus value added tax where it applies. They are billed in advance, monthly or yearly as chosen at purchase, and collected by our card payment provider.',
        ),
        paragraph(
          'Fees are not refunded, including when a subscription is cancelled before the end of a billing period. Adjustments for plan changes under section 7 are settled on the next invoices and are not refunds.',
        ),
      ],
    },
    {
      id: 'lapsed-payment',
      heading: 'Lapsed payment',
      blocks: [
        paragraph(
          'If a payment fails and is not made good, the licence is deactivated and the Software stops running with its key. The Licensee can reactivate the licence within 2 months of the deactivation by paying the open amount.',
        ),
        paragraph(
          'If the licence is not reactivated within those 2 months, it is marked for deletion and is deleted, together with the licence data described in section 10, within one further month.',
        ),
      ],
    },
    {
      id: 'cancellation',
      heading: 'Cancellation and plan changes',
      blocks: [
        paragraph(
          'The Licensee can cancel a Paid licence at any time in the billing portal, which it reaches through a link we send to the e-mail address of the licence. The cancellation takes effect at the end of the current billing period; the licence can be used until then.',
        ),
        paragraph('A Free licence can be cancelled at any time with immediate effect.'),
        paragraph(
          'Upgrades, downgrades and changes to the number of orgs take effect immediately. The fee for the rest of the current billing period is prorated.',
        ),
      ],
    },
    {
      id: 'versions',
      heading: 'New versions',
      blocks: [
        paragraph(
          'We publish new versions of the Software from time to time and describe them in the change log. If a new version makes older versions stop working, for example because of a change in our licensing service or in the Salesforce APIs, we announce it at least 2 weeks in advance by e-mail to the address of each licence and in the change log.',
        ),
      ],
    },
    {
      id: 'restrictions',
      heading: 'Restrictions',
      blocks: [
        paragraph('The Licensee may not:'),
        list(
          'sell, rent, lend, sublicense or otherwise pass on the Software or a licence key to third parties, except as section 2 allows;',
          'remove, bypass or interfere with the licence check;',
          'decompile or reverse engineer the Software, except where the law expressly permits it;',
          'use the Software to build or offer a product that competes with it.',
        ),
      ],
    },
    {
      id: 'licence-data',
      heading: 'Licence data',
      blocks: [
        paragraph(
          'To issue, validate and manage licences, we keep the following data for each licence:',
        ),
        list(
          'for every licence: the e-mail address, the licence key and the expiration date;',
          'for Paid licences also: the subscription status, the product and quantity, and the customer ID and subscription ID at our card payment provider.',
        ),
        paragraph('Our Privacy Policy explains how we process this data and for how long.'),
      ],
    },
    {
      id: 'support',
      heading: 'Support',
      blocks: [
        paragraph(
          `Technical support is free of charge for all licences, including trials, by e-mail to ${supportEmail} and in our community chat. For Enterprise licences we respond to every support request within at most ${priceConfig.enterpriseSlaResponseHours} hours on business days.`,
        ),
      ],
    },
    {
      id: 'warranty',
      heading: 'Warranty',
      blocks: [
        paragraph(
          'For Paid licences, we ensure that the Software substantially performs as described in its documentation. The Licensee reports defects with a description that allows us to reproduce them; we remedy them within a reasonable time by a correction, a new version or a workaround.',
        ),
        paragraph(
          'Trial and Free licences are provided free of charge. For them, we are liable for defects only if we concealed them fraudulently.',
        ),
      ],
    },
    {
      id: 'liability',
      heading: 'Liability',
      blocks: [
        paragraph(
          'We are liable without limitation for intent and gross negligence, for injury to life, body or health, and under the German Product Liability Act. For slight negligence we are liable only for breaches of obligations that are essential to the performance of this Agreement, and only for the damage that was typical and foreseeable when the licence was obtained. For Trial and Free licences, we are liable only for intent and gross negligence.',
        ),
        paragraph(
          'The Licensee is responsible for backing up its repositories and org metadata and for validating deployments, for example with check-only runs, before it deploys to production orgs.',
        ),
      ],
    },
    {
      id: 'term',
      heading: 'Term and termination',
      blocks: [
        paragraph(
          'This Agreement applies for as long as the Licensee holds a licence. Either party may terminate it for good cause; using one licence for several clients or passing on a licence key is good cause for us. When the Agreement ends, the Licensee stops using the Software.',
        ),
      ],
    },
    {
      id: 'law',
      heading: 'Governing law and jurisdiction',
      blocks: [
        paragraph(
          `This Agreement is governed by the law of the Federal Republic of Germany, excluding the United Nations Convention on Contracts for the International Sale of Goods. The courts of ${company.city} have exclusive jurisdiction for all disputes arising from it.`,
        ),
      ],
    },
    {
      id: 'contact',
      heading: 'Contact',
      blocks: [
        paragraph(
          `${company.name}, ${address}. Managing director: ${company.managingDirector}. E-mail: ${supportEmail}.`,
        ),
      ],
    },
  ],
};

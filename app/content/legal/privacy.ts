import { siteConfig } from '#shared/site-config.ts';
import { list, paragraph, type LegalDocument } from '#app/components/content/legal-document.ts';

const { company, productName, supportEmail } = siteConfig;
const address = `${company.street}, ${company.postalCode} ${company.city}, ${company.country}`;

/** The privacy policy of the website and the licensing service, version 1 (docs/product-rules.md#pages, #constants). */
export const privacyPolicy: LegalDocument = {
  title: 'Privacy Policy',
  subtitle: `for the ${productName} website, licences and services`,
  version: 1,
  date: '2021-07-31',
  intro: [
    paragraph(
      `This policy explains which personal data ${company.name} processes when you visit our website, request or buy a licence for the ${productName} command-line tool, or write to us — why we do it, how long we keep the data and which rights you have. We collect only what we need for these purposes, and we do not sell personal data.`,
    ),
  ],
  sections: [
    {
      id: 'controller',
      heading: 'Who is responsible',
      blocks: [
        paragraph(
          `The controller under the EU General Data Protection Regulation (GDPR) is ${company.name}, ${address}, represented by its managing director ${company.managingDirector}. You can reach us about data protection at ${supportEmail} or by post at the address above.`,
        ),
      ],
    },
    {
      id: 'licences',
      heading: 'Licences',
      blocks: [
        paragraph(
          'When you request a trial or a Free licence, or buy a Paid licence, we store for each licence the e-mail address, the licence key and the expiration date. For Paid licences we also store the subscription status, the product and quantity, and the customer ID and subscription ID our card payment provider assigns.',
        ),
        paragraph(
          'We use this data to issue the licence, send you the licence key, validate the key when the command-line tool checks it, convert a trial when you buy a subscription with the same e-mail address, check that an e-mail address has not been used for an earlier licence, and send you the notices described in our licence agreement. The legal basis is the performance of the licence contract (Art. 6(1)(b) GDPR).',
        ),
        paragraph(
          'When the command-line tool checks a key, it tells us the ID of the Salesforce org it runs in. We keep these IDs to count the orgs of the licence, and delete each one 90 days after that org last checked the key.',
        ),
        paragraph(
          'So that each e-mail address gets one trial, we keep a keyed hash of the address, from which the address cannot be read back, also after the licence is deleted.',
        ),
      ],
    },
    {
      id: 'contact-messages',
      heading: 'Contact messages',
      blocks: [
        paragraph(
          'When you write to us through the contact form, we receive your name, your e-mail address and your message, and your role and company if you choose to give them. When you write to us by e-mail, we receive your address and whatever the message contains.',
        ),
        paragraph(
          'We use these details only to answer you and to handle your request (Art. 6(1)(b) GDPR where it concerns a contract, otherwise our legitimate interest in answering enquiries, Art. 6(1)(f) GDPR). We delete them 180 days after they reach us.',
        ),
      ],
    },
    {
      id: 'payments',
      heading: 'Payments',
      blocks: [
        paragraph(
          'Paid licences are paid by card through our card payment provider. You enter your card and billing details directly on the provider’s checkout and billing portal pages; we never see or store your card number.',
        ),
        paragraph(
          'The provider tells us the customer ID, subscription ID, subscription status, product and quantity, which we keep with your licence, and processes the payment data itself to collect the fees, prevent fraud and meet its legal obligations. We keep each notice the provider sends us about a payment or subscription for 90 days, to apply it once. Invoices and other booking records are kept for 8 years, and quotes and orders by invoice, as commercial letters, for 6 years, each counted from the end of the calendar year, as German commercial and tax law requires; they are deleted when that period ends. An order by invoice that is never confirmed is deleted 60 days after it was placed. The legal basis is the performance of the contract and our legal obligations (Art. 6(1)(b) and (c) GDPR).',
        ),
      ],
    },
    {
      id: 'email',
      heading: 'E-mail delivery',
      blocks: [
        paragraph(
          'We send licence keys, links to the billing portal, notices about payments and the status of your licence, and announcements of versions that make older versions stop working by e-mail. An e-mail delivery service sends these messages on our behalf under a data processing agreement; it processes your e-mail address and the content of the message only for delivery.',
        ),
        paragraph(
          'We keep the content of an e-mail only until it is sent. We keep a record of each e-mail — the address it went to and its subject — for 30 days after it was sent, or until the last licence of that address is deleted if that comes first.',
        ),
      ],
    },
    {
      id: 'cookies',
      heading: 'Cookies',
      blocks: [
        paragraph(
          'Our website sets only the cookies below itself. The first two remember your choice in the cookie banner: each is sent only to our own site (SameSite=Strict) and is stored for 3650 days.',
        ),
        list(
          'The consent cookie records your consent to analytics: the value true when you chose to accept all cookies, so that analytics may run on later visits, and false once you withdrew it.',
          'The dismissed cookie records that you answered the cookie banner, with either choice, so that it is not shown again.',
          'The XSRF-TOKEN cookie (named __Host-XSRF-TOKEN on our secure site) holds a random value that protects our forms against cross-site request forgery. It is set when you first send one of our forms and deleted when you close your browser.',
        ),
        paragraph(
          'These cookies are strictly necessary to provide the website and to respect your choice, so they need no consent.',
        ),
        paragraph(
          'You can change your choice at any time with “Cookie settings” at the bottom of every page. It opens the cookie banner again and says what you chose. To withdraw your consent, choose “Only essential”: analytics stop on that page at once, no further analytics data is sent, the Google Analytics cookies (_ga and _ga_ followed by an identifier) are deleted from your browser, and the consent cookie records that you withdrew it. To give your consent again, choose “Accept all”. Deleting the cookies of our site in your browser also works; the banner then asks again.',
        ),
      ],
    },
    {
      id: 'analytics',
      heading: 'Analytics, only with your consent',
      blocks: [
        paragraph(
          'We use Google Analytics to understand how visitors use our website, for example which pages they read and how often the command-line tool is downloaded. It runs with consent mode: ad storage and analytics storage are denied by default and are granted only when you choose to accept all cookies in the cookie banner. Without that consent no analytics or advertising cookies are set.',
        ),
        paragraph(
          'With your consent, Google Analytics sets cookies and processes your shortened IP address, device and browser information and the pages you visit. The legal basis is your consent (Art. 6(1)(a) GDPR), which you can withdraw at any time with effect for the future as described in section 6.',
        ),
      ],
    },
    {
      id: 'server-logs',
      heading: 'Web server logs',
      blocks: [
        paragraph(
          'When you open a page, our web servers and the licensing service record the IP address, the date and time, the requested address, the referring page, the browser’s user agent and the response status. We need these logs to operate the website and to detect and defend against attacks (Art. 6(1)(f) GDPR). They are deleted within 7 days.',
        ),
      ],
    },
    {
      id: 'retention',
      heading: 'How long we keep licence data',
      blocks: [
        paragraph(
          'We keep licence data for as long as the licence exists. When a licence ends — because a trial expired, a subscription was cancelled or a payment lapsed — we keep its data for 2 months, so that the licence can be reactivated. After that it is marked for deletion and deleted within up to 1 further month. Data we must keep by law, such as invoices, is kept only for that purpose and for the period the law sets.',
        ),
      ],
    },
    {
      id: 'recipients',
      heading: 'Service providers and transfers',
      blocks: [
        paragraph(
          'We share personal data only with service providers we need for the purposes above:',
        ),
        list(
          'our hosting provider, which runs the website and the licensing service;',
          'our card payment provider, for Paid licences;',
          'our e-mail delivery service;',
          'Google, for analytics, only with your consent.',
        ),
        paragraph(
          'Where a provider processes data outside the European Economic Area, we make sure that an adequacy decision of the European Commission or the EU standard contractual clauses protect it.',
        ),
      ],
    },
    {
      id: 'rights',
      heading: 'Your rights',
      blocks: [
        paragraph('You have the right to:'),
        list(
          'access the personal data we hold about you (Art. 15 GDPR);',
          'have incorrect data corrected (Art. 16 GDPR);',
          'have your data erased (Art. 17 GDPR) or its processing restricted (Art. 18 GDPR);',
          'receive the data you gave us in a machine-readable format (Art. 20 GDPR);',
          'object to processing based on our legitimate interests (Art. 21 GDPR);',
          'withdraw a consent at any time, with effect for the future (Art. 7(3) GDPR).',
        ),
        paragraph(
          `To exercise these rights, write to ${supportEmail}. When we send you a copy of your data or erase it, we record that we did so, without your e-mail address, and keep that record for 3 years after the end of the calendar year. You also have the right to complain to a data protection supervisory authority, in particular in the country where you live or work, or to the authority responsible for us in ${company.city}.`,
        ),
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to this policy',
      blocks: [
        paragraph(
          'When our services or the law change, we update this policy and give it a new version number and date. We inform licence holders of material changes by e-mail.',
        ),
      ],
    },
  ],
};

import { Link } from 'react-router';
import type { FaqItem } from '../components/ui/Faq.tsx';
import { ModalLink } from '../components/dialogs/ModalLink.tsx';
import { formatPrice, priceConfig, priceInfo, unitPrices } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';

const pro = unitPrices('Pro', 'USD').monthly;
const proBase = formatPrice(pro.base, 'USD');
const proPerOrg = formatPrice(pro.perOrg, 'USD');
const largestPro = priceInfo(priceConfig.enterpriseStartSize - 1);
const orgsPerStack = Math.round(1 / priceConfig.proStacksPerSizeUnit);
const yearlyDiscount = Math.round((1 - priceConfig.annualDiscountFactor) * 100);
const slaHours = priceConfig.enterpriseSlaResponseHours;

/** An item whose body is plain paragraphs: the JSON-LD answer is the same text. */
function plain(title: string, paragraphs: string[]): FaqItem {
  return {
    title,
    body: paragraphs.map((text) => <p key={text}>{text}</p>),
    answerText: paragraphs.join(' '),
  };
}

/** The pricing page's FAQ, shown as an accordion and published as FAQPage structured data. */
export const pricingFaqItems: readonly FaqItem[] = [
  plain('Do you charge per user?', [
    'No. Orgsmith is priced per Salesforce org, not per user. A licence belongs to your company: your employees, affiliates and contractors may all use it, however many people that is.',
    'Consultants may not use one licence for several clients; each client needs its own.',
  ]),
  {
    title: 'How does the free trial work?',
    answerText:
      'The trial runs for two months with no limits and needs no credit card. It is issued to an e-mail address, and each address gets one trial: an address that has already been used for a licence cannot start another one. Start it with the Try Now button on this page.',
    body: (
      <>
        <p>
          The trial runs for two months with no limits and needs no credit card. It is issued to an
          e-mail address, and each address gets one trial: an address that has already been used for
          a licence cannot start another one.
        </p>
        <p>
          <ModalLink modal="trial">Start your free trial</ModalLink> now.
        </p>
      </>
    ),
  },
  plain('How many orgs and stacks can I buy with Pro?', [
    `With Pro you can buy up to ${largestPro.stacks} stacks and ${largestPro.orgs} orgs. The base price of ${proBase} a month covers ${priceConfig.proStartSize} orgs, and each further org adds ${proPerOrg} a month.`,
    `You get one stack for every ${orgsPerStack} orgs, rounded up: ${priceConfig.proStartSize} or ${orgsPerStack} orgs come with 1 stack, ${largestPro.orgs} orgs with ${largestPro.stacks}. Need more? Enterprise has unlimited orgs and stacks.`,
  ]),
  plain('What happens when my trial ends?', [
    'The trial licence expires after two months. Buy Pro or Enterprise with the same e-mail address and the trial converts to your paid licence automatically.',
    'Or carry on with the free Starter edition.',
  ]),
  plain('How am I billed?', [
    `Fees are billed in advance, monthly or yearly, by card through our payment provider. Yearly billing costs 12 months less ${yearlyDiscount}%.`,
    'Because fees are paid in advance, they are not refunded. Prices are net: German businesses, and EU businesses without a VAT ID, pay 19 % German VAT on top; EU businesses whose VAT ID VIES (the EU VAT number service) confirms pay no VAT (reverse charge); businesses outside the EU pay no German VAT.',
  ]),
  {
    title: 'Can I cancel at any time?',
    answerText:
      'Yes. A cancellation takes effect at the end of the billing period you have paid for; until then your licence keeps working. A free licence ends immediately. To cancel, ask for a link to the billing portal under Manage your subscription.',
    body: (
      <>
        <p>
          Yes. A cancellation takes effect at the end of the billing period you have paid for; until
          then your licence keeps working. A free licence ends immediately.
        </p>
        <p>
          To cancel, ask for a link to the billing portal under{' '}
          <ModalLink modal="portal-access">Manage your subscription</ModalLink>.
        </p>
      </>
    ),
  },
  plain('Can I change my plan or my number of orgs?', [
    'Yes, in the billing portal. Upgrades, downgrades and changes to the number of orgs take effect immediately and are prorated over the rest of your billing period.',
  ]),
  {
    title: 'What support do I get?',
    answerText: `Every licence, trials included, comes with free technical support by e-mail or in our community chat. Enterprise adds a support SLA: a response within ${slaHours} hours at most on business days.`,
    body: (
      <>
        <p>
          Every licence, trials included, comes with free technical support by e-mail or in our
          community chat. Enterprise adds a support SLA: a response within {slaHours} hours at most
          on business days.
        </p>
        <p>
          <Link to="/support">Contact support</Link> or write to{' '}
          <a href={`mailto:${siteConfig.supportEmail}`}>{siteConfig.supportEmail}</a>.
        </p>
      </>
    ),
  },
  plain('Which currencies can I pay in?', [
    `US dollars (USD) and euros (EUR). Euro prices are the dollar prices times ${priceConfig.eurFactor}, rounded down to whole euros. Choose your currency with the USD / EUR switch above.`,
  ]),
  plain('What happens if a payment fails?', [
    'The licence is deactivated. You can reactivate it within two months; after that it is marked for deletion and deleted within one more month.',
  ]),
];

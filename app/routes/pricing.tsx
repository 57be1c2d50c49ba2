import { Link } from 'react-router';
import { formatPrice, priceConfig, unitPrices } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { ModalLink } from '../components/dialogs/ModalLink.tsx';
import { NeedHelp } from '../components/pricing/NeedHelp.tsx';
import { PlanComparison } from '../components/pricing/PlanComparison.tsx';
import { PlanSelector } from '../components/pricing/PlanSelector.tsx';
import { searchParamsWithSelection } from '../components/pricing/price-selection.ts';
import { usePriceSelection } from '../components/pricing/use-price-selection.ts';
import { Faq, faqJsonLd } from '../components/ui/Faq.tsx';
import { pricingFaqItems } from '../content/pricing-faq.tsx';
import { planFeatures, planTaglines } from '../content/pricing-plans.ts';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';
import styles from './pricing.module.css';

export const meta = metaFor(pages.pricing, () => [
  { 'script:ld+json': faqJsonLd(pricingFaqItems) },
]);

const proMonthly = formatPrice(unitPrices('Pro', 'USD').monthly.base, 'USD');

export default function PricingPage() {
  const { selection } = usePriceSelection();
  return (
    <>
      <section className={`${styles.hero} section`} aria-labelledby="pricing-title">
        <div className="container">
          <p className="eyebrow">Pricing</p>
          <h1 id="pricing-title">Priced per Salesforce org, not per user</h1>
          <p className="lead">
            Start with the free Starter edition, grow with Pro from {proMonthly} a month for{' '}
            {priceConfig.proStartSize} orgs, or go unlimited with Enterprise. Everyone in your
            company can use the licence, and every licence comes with free technical support.
          </p>
          <div className={styles.heroActions}>
            <ModalLink modal="trial" className="button button-primary">
              Try Now
            </ModalLink>
            <span className={styles.heroNote}>Two months free, no limits, no credit card.</span>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="plans-title">
        <div className="container">
          <h2 id="plans-title" className={styles.centered}>
            Choose your plan
          </h2>
          <PlanSelector taglines={planTaglines} features={planFeatures} />
          <p className={styles.company}>
            <ModalLink
              modal="quote"
              className="button button-secondary"
              withParams={(current) =>
                searchParamsWithSelection(current, {
                  ...selection,
                  size: Math.max(selection.size, priceConfig.proStartSize),
                })
              }
            >
              Buying for a company? Get a quote or pay by invoice
            </ModalLink>
          </p>
        </div>
      </section>

      <section className={`${styles.muted} section`} aria-labelledby="compare-title">
        <div className="container">
          <h2 id="compare-title">Compare plans</h2>
          <PlanComparison selection={selection} features={planFeatures} />
        </div>
      </section>

      <div className="container section">
        <NeedHelp />
      </div>

      <section className="section" aria-labelledby="faq-title">
        <div className="container">
          <h2 id="faq-title">Frequently asked questions</h2>
          <Faq items={pricingFaqItems} />
        </div>
      </section>

      <section className={`${styles.muted} section`} aria-labelledby="more-title">
        <div className="container">
          <h2 id="more-title">Before you buy</h2>
          <ul className={styles.links}>
            <li>
              <Link to="/support">Support</Link>
              <span>
                Free technical support by e-mail or in the community chat, for every licence.
              </span>
            </li>
            <li>
              <Link to="/eula/cli">End User License Agreement</Link>
              <span>The licence terms every plan is sold under.</span>
            </li>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
              <span>How we handle the data of licences, payments and contact messages.</span>
            </li>
            <li>
              <a href={siteConfig.links.app}>{siteConfig.productName} app</a>
              <span>Already a customer? Continue in the {siteConfig.productName} app.</span>
            </li>
          </ul>
        </div>
      </section>
    </>
  );
}

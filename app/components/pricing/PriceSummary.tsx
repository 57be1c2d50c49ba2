import {
  formatPrice,
  priceConfig,
  unitPrices,
  type PriceCalculation,
} from '#shared/pricing/index.ts';
import { vatPricingLine } from '#shared/pricing/vat-line.ts';
import { FeatureMark } from './FeatureMark.tsx';
import { periodLabel } from './period-label.ts';
import { orgsLabel, planIncludes, stacksLabel, type PlanFeature } from './plan-labels.ts';
import styles from './PriceSummary.module.css';

/** The sentence the live region reads out whenever the selection changes. */
export function priceAnnouncement(calculation: PriceCalculation): string {
  const { info, currency, billingPeriod } = calculation;
  const plan = `${info.edition}, ${orgsLabel(info).toLowerCase()}, ${stacksLabel(info).toLowerCase()}`;
  if (calculation.isFree) return `${plan}: free.`;
  const price = `${formatPrice(calculation.selected.total, currency)} ${periodLabel(billingPeriod)} net of VAT`;
  const saving =
    billingPeriod === 'yearly'
      ? ` You save ${formatPrice(calculation.savedYearly, currency)} a year.`
      : '';
  return `${plan}: ${price}.${saving}`;
}

function Breakdown({ calculation }: { calculation: PriceCalculation }) {
  const { info, currency, billingPeriod, selected, extraOrgs: extra } = calculation;
  if (info.edition !== 'Pro') return null;
  const units = unitPrices('Pro', currency)[billingPeriod];
  return (
    <p className={styles.breakdown}>
      Base price {formatPrice(selected.base, currency)} for {priceConfig.proStartSize} orgs
      {extra > 0 && (
        <>
          {' '}
          + {extra} more {extra === 1 ? 'org' : 'orgs'} × {formatPrice(units.perOrg, currency)}
        </>
      )}
    </p>
  );
}

/** The price of the selection, large, and what the plan includes. */
export function PriceSummary({
  calculation,
  features,
}: {
  calculation: PriceCalculation;
  /** What a plan can include, in order. */
  features: readonly PlanFeature[];
}) {
  const { info, currency, billingPeriod } = calculation;
  const saved = formatPrice(calculation.savedYearly, currency);
  return (
    <div className={styles.summary}>
      <h3 className={styles.plan}>
        <span className={styles.planLabel}>Your plan</span> {info.edition}
      </h3>
      <p className={styles.price} data-testid="price">
        <span className={styles.amount} data-testid="price-amount">
          {calculation.isFree ? 'Free' : formatPrice(calculation.selected.total, currency)}
        </span>{' '}
        {!calculation.isFree && (
          <span className={styles.per} data-testid="price-period">
            {periodLabel(billingPeriod)}
          </span>
        )}
      </p>
      {calculation.isFree ? (
        <p className={styles.note}>No payment and no credit card needed.</p>
      ) : (
        <>
          <p className={styles.note}>{vatPricingLine}</p>
          <Breakdown calculation={calculation} />
          <p className={styles.saving} data-testid="price-saving">
            {billingPeriod === 'yearly'
              ? `You save ${saved} a year compared with monthly billing.`
              : `Pay yearly and save ${saved} a year.`}
          </p>
        </>
      )}
      <h4 className={styles.includesTitle}>{info.edition} includes</h4>
      <ul className={styles.includes}>
        <li className={styles.count} data-testid="includes-orgs">
          <FeatureMark included announce={false} />
          {orgsLabel(info)}
        </li>
        <li className={styles.count} data-testid="includes-stacks">
          <FeatureMark included announce={false} />
          {stacksLabel(info)}
        </li>
        {features.map((feature) => {
          const included = planIncludes(info, feature);
          return (
            <li key={feature.label} className={included ? undefined : styles.missing}>
              <FeatureMark included={included} announce={false} />
              {feature.label}
              {!included && <span className="visually-hidden"> (not included)</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

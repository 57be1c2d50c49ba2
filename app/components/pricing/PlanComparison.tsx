import { useId } from 'react';
import {
  calculatePrice,
  defaultSizeForEdition,
  editions,
  formatPrice,
  priceInfo,
  type PriceSelection,
} from '#shared/pricing/index.ts';
import { FeatureMark } from './FeatureMark.tsx';
import { planIncludes, planRange, type PlanFeature } from './plan-labels.ts';
import styles from './PlanComparison.module.css';

const plans = editions.map((edition) => priceInfo(defaultSizeForEdition(edition)));

/** Features × Starter / Pro / Enterprise, priced in the selected currency and period. */
export function PlanComparison({
  selection,
  features,
}: {
  selection: PriceSelection;
  /** The feature rows, in order. */
  features: readonly PlanFeature[];
}) {
  const captionId = useId();
  const selectedEdition = priceInfo(selection.size).edition;
  const priceLabel = selection.billingPeriod === 'monthly' ? 'Price per month' : 'Price per year';
  const price = (size: number, edition: string) => {
    const result = calculatePrice({ ...selection, size });
    if (result.isFree) return 'Free';
    const amount = formatPrice(result.selected.total, selection.currency);
    return edition === 'Pro' ? `from ${amount}` : amount;
  };
  return (
    <>
      {/* Sighted phone users need the cue; the table itself reads in full to everyone else. */}
      <p className={styles.hint} aria-hidden="true" data-testid="compare-scroll-hint">
        Swipe sideways to see all three plans
        <svg width="16" height="16" viewBox="0 0 16 16">
          <path
            d="M2 8h11M9 4l4 4-4 4"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </p>
      <div className={styles.scroller} role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className={styles.table}>
          <caption id={captionId} className="visually-hidden">
            Starter, Pro and Enterprise compared
          </caption>
          <thead>
            <tr>
              <td />
              {plans.map((plan) => (
                <th
                  key={plan.edition}
                  scope="col"
                  className={plan.edition === selectedEdition ? styles.selected : undefined}
                >
                  {plan.edition}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{priceLabel}</th>
              {plans.map((plan) => (
                <td key={plan.edition}>{price(plan.size, plan.edition)}</td>
              ))}
            </tr>
            <tr>
              <th scope="row">Salesforce orgs</th>
              {plans.map((plan) => (
                <td key={plan.edition}>{planRange(plan.edition, 'orgs')}</td>
              ))}
            </tr>
            <tr>
              <th scope="row">Stacks</th>
              {plans.map((plan) => (
                <td key={plan.edition}>{planRange(plan.edition, 'stacks')}</td>
              ))}
            </tr>
            {features.map((feature) => (
              <tr key={feature.label}>
                <th scope="row">{feature.label}</th>
                {plans.map((plan) => (
                  <td key={plan.edition}>
                    <FeatureMark included={planIncludes(plan, feature)} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import {
  currencies,
  defaultSizeForEdition,
  editions,
  priceConfig,
  type BillingPeriod,
  type Currency,
  type Edition,
} from '#shared/pricing/index.ts';
import { PlanCard } from './PlanCard.tsx';
import { PlanCallToAction, type PlanCallToActionProps } from './PlanCallToAction.tsx';
import type { PlanFeature } from './plan-labels.ts';
import { quantityForEdition } from './plan-quantity.ts';
import { PriceSummary, priceAnnouncement } from './PriceSummary.tsx';
import { SegmentedToggle, type ToggleOption } from './SegmentedToggle.tsx';
import { SizeSlider } from './SizeSlider.tsx';
import { parsePriceSelection, selectionParams } from './price-selection.ts';
import { usePriceSelection } from './use-price-selection.ts';
import styles from './PlanSelector.module.css';

const yearlyDiscount = Math.round((1 - priceConfig.annualDiscountFactor) * 100);

const periodOptions: ReadonlyArray<ToggleOption<BillingPeriod>> = [
  { value: 'monthly', label: 'Monthly' },
  {
    value: 'yearly',
    label: (
      <>
        Yearly <span className={styles.discount}>save {yearlyDiscount}%</span>
      </>
    ),
  },
];

const currencyOptions: ReadonlyArray<ToggleOption<Currency>> = currencies.map((currency) => ({
  value: currency,
  label: currency,
}));

interface PlanSelectorProps {
  /** The one-line pitch of each plan card. */
  taglines: Readonly<Record<Edition, string>>;
  /** What a plan can include, in the order the price summary lists it. */
  features: readonly PlanFeature[];
  /** The actions of each plan card; defaults to `PlanCallToAction`. */
  renderAction?: (props: PlanCallToActionProps) => ReactNode;
}

/**
 * The pricing selector (docs/product-rules.md#behaviour): plan cards, size slider, billing period and currency, the price
 * and what it includes. Its state is the URL (`usePriceSelection`); as a GET form it also works
 * without JavaScript.
 */
export function PlanSelector({
  taglines,
  features,
  renderAction = PlanCallToAction,
}: PlanSelectorProps) {
  const { selection, calculation, update } = usePriceSelection();
  const selectedEdition = calculation.info.edition;
  const selectEdition = (edition: Edition) => update({ size: defaultSizeForEdition(edition) });
  // With JavaScript the URL is updated on every change; the form only submits without it.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();
  const formRef = useRef<HTMLFormElement>(null);
  const initial = useRef(update);
  useEffect(() => {
    // A slider moved or a toggle chosen before the page hydrated lives only in the DOM (hydration
    // leaves user input alone, decision 110): adopt all of it in one update.
    if (!formRef.current) return;
    const fields = new FormData(formRef.current);
    const inDom = parsePriceSelection(
      new URLSearchParams([...fields].map(([key, value]) => [key, String(value)])),
    );
    initial.current(inDom);
  }, []);

  return (
    <form
      ref={formRef}
      method="get"
      action="/pricing"
      className={styles.selector}
      onSubmit={onSubmit}
    >
      <div className={styles.toggles}>
        <SegmentedToggle
          legend="Billing period"
          name={selectionParams.period}
          options={periodOptions}
          value={selection.billingPeriod}
          onChange={(billingPeriod) => update({ billingPeriod })}
        />
        <SegmentedToggle
          legend="Currency"
          name={selectionParams.currency}
          options={currencyOptions}
          value={selection.currency}
          onChange={(currency) => update({ currency })}
        />
      </div>

      <ul className={styles.cards} aria-label="Plans">
        {editions.map((edition) => (
          <li key={edition}>
            <PlanCard
              edition={edition}
              tagline={taglines[edition]}
              selection={selection}
              isSelected={edition === selectedEdition}
              onSelect={selectEdition}
              action={renderAction({
                edition,
                quantity: quantityForEdition(edition, selection),
                selection,
                isSelected: edition === selectedEdition,
              })}
            />
          </li>
        ))}
      </ul>

      <div className={styles.panel}>
        <div className={styles.configure}>
          <h3 className={styles.panelTitle}>Size your plan</h3>
          <SizeSlider info={calculation.info} onChange={(size) => update({ size })} />
          <noscript>
            <button type="submit" className="button button-primary">
              Show price
            </button>
          </noscript>
          {!calculation.isFree && (
            <p className={styles.fineprint}>
              Billed {selection.billingPeriod} in advance, without refunds. Cancel at the end of any
              billing period; plan changes apply at once and are prorated.
            </p>
          )}
        </div>
        <div className={styles.result}>
          <PriceSummary calculation={calculation} features={features} />
        </div>
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {priceAnnouncement(calculation)}
      </p>
    </form>
  );
}

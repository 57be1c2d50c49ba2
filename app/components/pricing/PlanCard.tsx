import type { ReactNode } from 'react';
import {
  calculatePrice,
  defaultSizeForEdition,
  formatPrice,
  type Edition,
  type PriceSelection,
} from '#shared/pricing/index.ts';
import { periodLabel } from './period-label.ts';
import { planRangeLabel } from './plan-labels.ts';
import { planParam } from './price-selection.ts';
import styles from './PlanCard.module.css';

interface PlanCardProps {
  edition: Edition;
  /** The plan's one-line pitch. */
  tagline: string;
  selection: PriceSelection;
  isSelected: boolean;
  onSelect: (edition: Edition) => void;
  action: ReactNode;
}

/** One plan side by side with the others; choosing it sets the size to the plan's default. */
export function PlanCard({
  edition,
  tagline,
  selection,
  isSelected,
  onSelect,
  action,
}: PlanCardProps) {
  const entry = calculatePrice({ ...selection, size: defaultSizeForEdition(edition) });
  const price = entry.isFree ? 'Free' : formatPrice(entry.selected.total, selection.currency);
  return (
    <article className={`${styles.card} ${isSelected ? styles.selected : ''}`}>
      <h3 className={styles.name}>
        {/* A submit button: clicked before hydration, the form asks the server for this plan. */}
        <button
          type="submit"
          name={planParam}
          value={edition}
          className={styles.choose}
          aria-pressed={isSelected}
          onClick={() => onSelect(edition)}
        >
          {edition}
        </button>
      </h3>
      {isSelected && (
        <span className={styles.badge} aria-hidden="true">
          Selected
        </span>
      )}
      <p className={styles.price}>
        {edition === 'Pro' && <span className={styles.from}>from </span>}
        <span className={styles.amount}>{price}</span>
        {!entry.isFree && (
          <span className={styles.per}> {periodLabel(selection.billingPeriod)}</span>
        )}
      </p>
      <p className={styles.tagline}>{tagline}</p>
      <ul className={styles.facts}>
        <li>{planRangeLabel(edition, 'orgs')}</li>
        <li>{planRangeLabel(edition, 'stacks')}</li>
      </ul>
      <div className={styles.action}>{action}</div>
    </article>
  );
}

import type { Edition, PriceSelection } from '#shared/pricing/index.ts';
import styles from '../checkout/CheckoutButton.module.css';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import { searchParamsWithSelection } from './price-selection.ts';

export interface PlanCallToActionProps {
  edition: Edition;
  /** The size this plan's action is about (see `quantityForEdition`). */
  quantity: number;
  selection: PriceSelection;
  isSelected: boolean;
}

/**
 * The one action at the foot of a plan card (decision 179): Starter is got free, Pro and
 * Enterprise are bought. It opens the checkout dialog for this card's plan (decision 219), which
 * asks for the company first; the free trial sits in the page's hero, and a company's quote or
 * order by invoice in the dialog under the cards.
 */
export function PlanCallToAction({ edition, quantity, selection }: PlanCallToActionProps) {
  return (
    <div className={styles.checkout}>
      <ModalLink
        modal="checkout"
        className={`button button-primary ${styles.submit}`}
        withParams={(current) =>
          searchParamsWithSelection(current, { ...selection, size: quantity })
        }
      >
        {edition === 'Starter' ? 'Get Starter free' : `Buy ${edition}`}
      </ModalLink>
    </div>
  );
}

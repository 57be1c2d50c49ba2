import type { Edition, PriceSelection } from '#shared/pricing/index.ts';
import { CheckoutButton } from '../checkout/CheckoutButton.tsx';

export interface PlanCallToActionProps {
  edition: Edition;
  /** The size this plan's action is about (see `quantityForEdition`). */
  quantity: number;
  selection: PriceSelection;
  isSelected: boolean;
}

/**
 * The one action at the foot of a plan card (decision 179): Starter is got free, Pro and
 * Enterprise are bought. The free trial sits in the page's hero, and a company's quote or order
 * by invoice in the dialog under the cards, so no card carries a second button or a form.
 */
export function PlanCallToAction({
  edition,
  quantity,
  selection,
  isSelected,
}: PlanCallToActionProps) {
  return (
    <CheckoutButton
      edition={edition}
      quantity={quantity}
      selection={selection}
      offerTrialConversion={isSelected && edition !== 'Starter'}
    />
  );
}

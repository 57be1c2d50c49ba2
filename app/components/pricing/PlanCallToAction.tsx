import { Link } from 'react-router';
import type { Edition, PriceSelection } from '#shared/pricing/index.ts';
import { mayPayByInvoice } from '#shared/pricing/index.ts';
import { CheckoutButton } from '../checkout/CheckoutButton.tsx';
import { PayByInvoice } from '../checkout/PayByInvoice.tsx';
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
 * The actions at the foot of a plan card. Starter is free to download; paid plans start with the
 * free trial or a PDF quote. The checkout adds its Buy button here (edition, quantity, period and
 * currency are all in the props); "Get a quote" writes this plan's selection into the URL with
 * the dialog, so the quote is for the card it was asked from.
 */
export function PlanCallToAction({
  edition,
  quantity,
  selection,
  isSelected,
}: PlanCallToActionProps) {
  const checkout = (
    <CheckoutButton
      edition={edition}
      quantity={quantity}
      selection={selection}
      offerTrialConversion={isSelected && edition !== 'Starter'}
    />
  );
  if (edition === 'Starter') {
    return (
      <>
        {checkout}
        <Link to="/download" className="button button-secondary">
          Download for free
        </Link>
      </>
    );
  }
  return (
    <>
      {checkout}
      <ModalLink
        modal="quote"
        className="button button-ghost"
        withParams={(current) =>
          searchParamsWithSelection(current, { ...selection, size: quantity })
        }
      >
        Get a quote
      </ModalLink>
      {mayPayByInvoice({ edition, billingPeriod: selection.billingPeriod }) && (
        <PayByInvoice edition={edition} quantity={quantity} selection={selection} />
      )}
      <ModalLink modal="trial" className="button button-secondary">
        Start free trial
      </ModalLink>
    </>
  );
}

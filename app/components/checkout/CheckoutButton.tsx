import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import type { Edition, PriceSelection } from '#shared/pricing/index.ts';
import type { RootData } from '#app/root-data.ts';
import { quotePath } from '../pricing/price-selection.ts';
import { Alert } from '../ui/Alert.tsx';
import styles from './CheckoutButton.module.css';
import { startCheckout } from './start-checkout.ts';

export interface CheckoutButtonProps {
  edition: Edition;
  /** The size bought: the selected size if it is this edition's, else the edition's default. */
  quantity: number;
  selection: PriceSelection;
  /** Offer the optional "convert my trial" field (shown on the selected plan only). */
  offerTrialConversion?: boolean;
  /** The accept page's quote link token: the paid checkout accepts that quote (decision 214). */
  quoteToken?: string;
}

const noSubscription = () => () => undefined;

/**
 * Pay a quote by card (its accept page): posts the quote's plan and its link's token to the
 * account service's checkout (docs/product-rules.md#service-calls), which takes the company,
 * address and VAT ID from the quote (decision 219), and sends the buyer to the hosted checkout.
 * Errors show the billing texts of docs/product-rules.md#messages. The plan cards open the
 * checkout dialog instead (`CheckoutForm`), which asks for the company first.
 */
export function CheckoutButton({
  edition,
  quantity,
  selection,
  offerTrialConversion = false,
  quoteToken,
}: CheckoutButtonProps) {
  const root = useRouteLoaderData<RootData>('root');
  const accountApiUrl = root?.accountApiUrl ?? '';
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [trialKey, setTrialKey] = useState('');
  // False in the server-rendered HTML, true once React runs: the button needs script.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const ids = useId();

  useEffect(() => {
    // Back from the checkout page (bfcache): the button must work again.
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setProcessing(false);
    };
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  async function openCheckout() {
    if (processing) return;
    setError(null);
    setProcessing(true);
    const origin = window.location.origin;
    const request: CheckoutRequestInput = {
      edition,
      quantity,
      billingPeriod: selection.billingPeriod,
      billingCurrency: selection.currency,
      trialLicenseKeyToConvert: trialKey.trim() || undefined,
      quoteToken,
      successUrl: `${origin}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}${quotePath({ ...selection, size: quantity })}`,
    };
    const started = await startCheckout(accountApiUrl, request);
    if (started.ok) return;
    setError(started.message);
    setProcessing(false);
  }

  const label = edition === 'Starter' ? 'Get Starter free' : `Buy ${edition}`;
  const errorId = `${ids}-error`;
  // A plain group, not a form: the plan cards sit inside the selector's own GET form.
  return (
    <div className={styles.checkout}>
      {offerTrialConversion && (
        <details className={styles.trial}>
          <summary>Converting a trial?</summary>
          <label className={styles.label} htmlFor={`${ids}-key`}>
            Trial licence key (optional)
          </label>
          <span className={styles.hint} id={`${ids}-hint`}>
            Your trial keeps its key. Without it, the licence e-mail to your trial’s address lets
            you keep the trial key.
          </span>
          <input
            id={`${ids}-key`}
            className={styles.input}
            value={trialKey}
            onChange={(event) => {
              setTrialKey(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              // Enter would submit the selector's form; here it starts the checkout.
              if (event.key === 'Enter') {
                event.preventDefault();
                void openCheckout();
              }
            }}
            autoComplete="off"
            spellCheck={false}
            placeholder="ORGS-XXXX-XXXX-…"
            aria-describedby={`${ids}-hint`}
            maxLength={100}
          />
        </details>
      )}
      <button
        type="button"
        onClick={() => void openCheckout()}
        className={`button button-primary ${styles.submit}`}
        disabled={!hydrated || processing}
        aria-busy={processing}
        aria-describedby={error ? errorId : undefined}
      >
        {processing ? 'Opening checkout…' : label}
      </button>
      {error && (
        <div id={errorId}>
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
    </div>
  );
}

import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { InvoiceCheckoutProps } from './InvoiceCheckout.tsx';
import styles from './PayByInvoice.module.css';

// The form's code loads when a buyer opens the disclosure, not with the pricing page.
const InvoiceCheckout = lazy(() =>
  import('./InvoiceCheckout.tsx').then((module) => ({ default: module.InvoiceCheckout })),
);

/**
 * "Pay by invoice (net 30)" under a plan card's Buy button (decision 144): a disclosure whose
 * form is loaded on first opening. Opened before hydration (a `<details>` works without
 * JavaScript), the form appears once the page has hydrated.
 */
export function PayByInvoice(props: Omit<InvoiceCheckoutProps, 'initial' | 'quoteToken'>) {
  const details = useRef<HTMLDetailsElement>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (details.current?.open) setOpened(true);
  }, []);
  return (
    <details
      ref={details}
      className={styles.invoice}
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary>Pay by invoice (net 30)</summary>
      {opened && (
        <Suspense fallback={<p className={styles.loading}>Loading the invoice form…</p>}>
          <InvoiceCheckout {...props} />
        </Suspense>
      )}
    </details>
  );
}

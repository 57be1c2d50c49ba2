import { useEffect, useRef } from 'react';
import { Link, useRevalidator } from 'react-router';
import { Alert } from '../ui/Alert.tsx';
import type { CheckoutStatus } from './licence-status-data.ts';
import styles from './LicenceStatus.module.css';

/** While a payment is processing the page asks again this often, this many times. */
const POLL_MS = 3000;
const POLL_LIMIT = 20;

function planName(edition: string, quantity: number): string {
  return edition === 'Pro' ? `Orgsmith Pro (${quantity} orgs)` : `Orgsmith ${edition}`;
}

/** The licence status of the checkout on the success page: "on its way" or "processing". */
export function LicenceStatus({ status }: { status: CheckoutStatus }) {
  const revalidator = useRevalidator();
  const polls = useRef(0);
  const processing = status.state === 'processing';

  useEffect(() => {
    if (!processing || polls.current >= POLL_LIMIT) return;
    const timer = window.setTimeout(() => {
      polls.current += 1;
      void revalidator.revalidate();
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [processing, revalidator, status]);

  switch (status.state) {
    case 'issued':
      return (
        <div className={styles.status}>
          <Alert tone="success">
            {status.converted ? (
              <>
                <strong>Your trial is now {planName(status.edition, status.quantity)}.</strong> Keep
                using the same licence key; a confirmation is on its way to{' '}
                <span className={styles.email}>{status.email}</span>.
              </>
            ) : (
              <>
                <strong>
                  Your {planName(status.edition, status.quantity)} licence key is on its way
                </strong>{' '}
                to <span className={styles.email}>{status.email}</span>.
              </>
            )}
          </Alert>
        </div>
      );
    case 'processing':
      return (
        <div className={styles.status}>
          <Alert tone="info">
            <strong>Your payment is processing.</strong> Your licence key is e-mailed as soon as the
            payment is confirmed; this page updates by itself.
          </Alert>
        </div>
      );
    case 'open':
    case 'expired':
      return (
        <div className={styles.status}>
          <Alert tone="warning">
            <strong>
              {status.state === 'open'
                ? 'This checkout was not completed.'
                : 'This checkout has expired.'}
            </strong>{' '}
            Nothing was charged. <Link to="/pricing">Back to pricing</Link>
          </Alert>
        </div>
      );
    case 'unknown':
      return null;
  }
}

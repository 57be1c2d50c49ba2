import styles from './TestModeNotice.module.css';

/**
 * Shown on every page when the operator chose the built-in test payments on purpose
 * (`PAYMENT_PROVIDER=local`, decision 126): nobody should mistake a test card for a purchase.
 */
export function TestModeNotice() {
  return (
    <aside className={styles.notice} aria-label="Test mode">
      <strong>Test mode:</strong> purchases on this site use test payments. No card is charged, and
      licences bought here are for testing only.
    </aside>
  );
}

import styles from './Forms.module.css';

/** The dialogs' submit button: "Send", with a typing animation while the request runs. */
export function SendButton({ disabled, processing }: { disabled: boolean; processing: boolean }) {
  return (
    <button
      type="submit"
      className={`button button-primary ${styles.send}`}
      disabled={disabled}
      aria-busy={processing || undefined}
    >
      <span className={processing ? styles.sendLabelHidden : undefined}>Send</span>
      {processing ? (
        <span className={styles.typing} data-testid="typing-indicator">
          <span className={styles.dot} aria-hidden="true" />
          <span className={styles.dot} aria-hidden="true" />
          <span className={styles.dot} aria-hidden="true" />
          <span className="visually-hidden">Sending…</span>
        </span>
      ) : null}
    </button>
  );
}

import { Alert } from '../ui/Alert.tsx';
import styles from './Forms.module.css';
import type { SubmissionState } from './use-submission.ts';

export interface FormFooterProps {
  /** The form's state from `useSubmission`: sending, done, or the error message to show. */
  submission: SubmissionState;
  /** What the success alert says once the request went through. */
  successMessage: string;
  /** Whether a field holds an error; the button stays disabled until none does. */
  invalid: boolean;
}

/**
 * The tail every form ends with (docs/product-rules.md#behaviour): the result alert, then the
 * send button, in that order in all forms. The alert sits right after the fields it answers and
 * just above the button that was pressed, so it shows where the visitor is looking even when a
 * long form scrolls inside its dialog; `role="status"`/`role="alert"` announce it, and focus
 * stays on the button. The pieces stay direct children of the form, whose grid spaces them.
 */
export function FormFooter({ submission, successMessage, invalid }: FormFooterProps) {
  const { isProcessing, resultIsSuccess, resultErrorMessage } = submission;
  return (
    <>
      {resultIsSuccess ? <Alert tone="success">{successMessage}</Alert> : null}
      {resultErrorMessage ? <Alert tone="danger">{resultErrorMessage}</Alert> : null}
      <div className={styles.actions}>
        <SendButton
          disabled={invalid || isProcessing || resultIsSuccess}
          processing={isProcessing}
        />
      </div>
    </>
  );
}

/** The submit button: "Send", with a typing animation while the request runs. */
function SendButton({ disabled, processing }: { disabled: boolean; processing: boolean }) {
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

import type { ReactNode } from 'react';
import { Alert } from '../ui/Alert.tsx';
import styles from './Forms.module.css';
import type { SubmissionState } from './use-submission.ts';

export interface FormFooterProps {
  /** The form's state from `useSubmission`: sending, done, or the error message to show. */
  submission: SubmissionState;
  /**
   * What the success alert says once the request went through, for a form that stays on screen
   * after success; forms that turn into a `SuccessView` leave it out (decision 186).
   */
  successMessage?: ReactNode;
  /** Whether a field holds an error; the button stays disabled until none does. */
  invalid: boolean;
  /** The button's label; "Send" unless the form says otherwise. */
  submitLabel?: string;
}

/**
 * The tail every form ends with (docs/product-rules.md#behaviour): the result alert, then the
 * send button, in that order in all forms. The alert sits right after the fields it answers and
 * just above the button that was pressed, so it shows where the visitor is looking even when a
 * long form scrolls inside its dialog; `role="status"`/`role="alert"` announce it, and focus
 * stays on the button. The pieces stay direct children of the form, whose grid spaces them.
 */
export function FormFooter({
  submission,
  successMessage,
  invalid,
  submitLabel = 'Send',
}: FormFooterProps) {
  const { isProcessing, resultIsSuccess, resultErrorMessage } = submission;
  return (
    <>
      {resultIsSuccess && successMessage ? <Alert tone="success">{successMessage}</Alert> : null}
      {resultErrorMessage ? <Alert tone="danger">{resultErrorMessage}</Alert> : null}
      <div className={styles.actions}>
        <SendButton
          disabled={invalid || isProcessing || resultIsSuccess}
          processing={isProcessing}
          label={submitLabel}
        />
      </div>
    </>
  );
}

/** The submit button ("Send"), with a typing animation while the request runs. */
function SendButton({
  disabled,
  processing,
  label,
}: {
  disabled: boolean;
  processing: boolean;
  label: string;
}) {
  return (
    <button
      type="submit"
      className={`button button-primary ${styles.send}`}
      disabled={disabled}
      aria-busy={processing || undefined}
    >
      <span className={processing ? styles.sendLabelHidden : undefined}>{label}</span>
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

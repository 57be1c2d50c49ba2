import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useDialogClose } from '../dialogs/dialog-close.ts';
import { Alert } from '../ui/Alert.tsx';
import styles from './SuccessView.module.css';

export interface SuccessViewProps {
  /** A short heading: what happened ("Message sent", "Check your inbox"). */
  title: string;
  /** Heading level that fits the outline around the form it replaces. */
  headingLevel?: 2 | 3 | 4;
  /** The result text, word for word where the spec names it; announced as a status. */
  message: ReactNode;
  /** The one thing to do next. */
  next: ReactNode;
  /** Links or buttons for that step; a dialog adds its own Close button after them. */
  actions?: ReactNode;
}

/**
 * What a form turns into once it has been sent (decision 186): it replaces the form, so it is
 * short enough to be seen whole on a phone, says what happened and what comes next, and takes
 * focus so keyboard and screen-reader users land on it rather than on a form that is gone.
 */
export function SuccessView({ title, headingLevel = 3, message, next, actions }: SuccessViewProps) {
  const ref = useRef<HTMLElement>(null);
  const headingId = useId();
  const close = useDialogClose();
  const Heading = `h${headingLevel}` as const;

  useEffect(() => {
    // In sight first: a form that collapsed may have left the view above the screen.
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.focus({ preventScroll: true });
  }, []);

  return (
    <section
      ref={ref}
      className={styles.view}
      aria-labelledby={headingId}
      tabIndex={-1}
      data-testid="success-view"
    >
      <div className={styles.head}>
        <svg className={styles.icon} aria-hidden="true" width="28" height="28" viewBox="0 0 28 28">
          <circle cx="14" cy="14" r="13" fill="currentColor" />
          <path
            d="M8.5 14.5l3.5 3.5 7.5-8"
            fill="none"
            stroke="#fff"
            strokeWidth="2.5"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <Heading id={headingId} className={styles.title}>
          {title}
        </Heading>
      </div>
      <Alert tone="success">{message}</Alert>
      <p className={styles.next}>
        <strong>Next step: </strong>
        {next}
      </p>
      {actions || close ? (
        <div className={styles.actions}>
          {actions}
          {close ? (
            <button
              type="button"
              className={`button ${actions ? 'button-secondary' : 'button-primary'}`}
              onClick={close}
            >
              Close
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';

/** A form's result state (docs/product-rules.md#behaviour): idle → processing → success or error. */
export interface SubmissionState {
  isProcessing: boolean;
  resultIsSuccess: boolean;
  resultErrorMessage: string | null;
}

const idle: SubmissionState = {
  isProcessing: false,
  resultIsSuccess: false,
  resultErrorMessage: null,
};

/** What a send function reports: success, or the message to show. */
export type SendOutcome = { ok: true } | { ok: false; message: string };

/**
 * Runs one request at a time for a dialog's form. Submitting resets the result and starts
 * processing; the outcome sets success or the error message; processing ends either way. The
 * request is aborted when the form unmounts (the dialog closes).
 */
export function useSubmission() {
  const [state, setState] = useState<SubmissionState>(idle);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      controllerRef.current?.abort();
      controllerRef.current = null;
    },
    [],
  );

  const submit = useCallback(
    async (send: (signal: AbortSignal) => Promise<SendOutcome>, failureMessage: string) => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      setState({ isProcessing: true, resultIsSuccess: false, resultErrorMessage: null });
      let outcome: SendOutcome;
      try {
        outcome = await send(controller.signal);
      } catch {
        outcome = { ok: false, message: failureMessage };
      }
      if (controller.signal.aborted) return;
      controllerRef.current = null;
      setState({
        isProcessing: false,
        resultIsSuccess: outcome.ok,
        resultErrorMessage: outcome.ok ? null : outcome.message,
      });
    },
    [],
  );

  /** Any edit clears the previous result (a request in flight keeps running). */
  const resetResult = useCallback(() => {
    setState((current) =>
      current.resultIsSuccess || current.resultErrorMessage !== null
        ? { ...current, resultIsSuccess: false, resultErrorMessage: null }
        : current,
    );
  }, []);

  return { ...state, submit, resetResult };
}

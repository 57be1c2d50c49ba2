import { useEffect, useId, useRef, type FormEvent } from 'react';
import { useRouteLoaderData } from 'react-router';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { fieldErrors } from '#shared/contracts/fields.ts';
import { failureMessages } from '#shared/contracts/messages.ts';
import {
  LOST_KEY_PATH,
  lostKeyMessages,
  lostKeyRequestSchema,
} from '#shared/contracts/licence-recovery.ts';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { EmailAddressField, useEmailAddress } from '../forms/EmailAddressField.tsx';
import { FormFooter } from '../forms/FormFooter.tsx';
import formStyles from '../forms/Forms.module.css';
import { SuccessView } from '../forms/SuccessView.tsx';
import { useSubmission } from '../forms/use-submission.ts';
import styles from './LostKeyForm.module.css';

export interface LostKeyFormProps {
  /** Heading level that fits the page's outline. */
  headingLevel?: 2 | 3;
}

/**
 * "Lost your licence key?" (decision 075): asks for the licence address; the account service
 * e-mails a link per licence that replaces its key. The answer is the same whether or not the
 * address is known, so the form always says the same thing on success.
 */
export function LostKeyForm({ headingLevel = 2 }: LostKeyFormProps) {
  const accountApiUrl = useRouteLoaderData<RootData>('root')?.accountApiUrl ?? '';
  const headingId = useId();
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const address = useEmailAddress(resetResult);
  const emailAddress = address.value;
  const errors = fieldErrors(lostKeyRequestSchema, { emailAddress });
  const invalid = Object.keys(errors).length > 0;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const panelRef = useRef<HTMLElement>(null);
  const returningRef = useRef(false);

  // Back from the success view to the form: focus its field instead of losing it to the page.
  useEffect(() => {
    if (resultIsSuccess || !returningRef.current) return;
    returningRef.current = false;
    panelRef.current?.querySelector('input')?.focus();
  }, [resultIsSuccess]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    void submit(async (signal) => {
      const response = await apiFetch(`${accountApiUrl}${LOST_KEY_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ emailAddress: emailAddress.trim() }),
        trustedBase: accountApiUrl,
        signal,
      });
      if (response.ok) return { ok: true };
      const code = await readErrorCode(response);
      return {
        ok: false,
        message:
          code === errorCodes.tooManyRequests
            ? lostKeyMessages.rateLimited
            : failureMessages.licensing,
      };
    }, failureMessages.licensing);
  };

  return (
    <section ref={panelRef} className={styles.panel} aria-labelledby={headingId}>
      <Heading id={headingId} className={styles.heading}>
        {lostKeyMessages.heading}
      </Heading>
      {resultIsSuccess ? (
        <SuccessView
          title="Check your inbox"
          headingLevel={headingLevel === 2 ? 3 : 4}
          message={lostKeyMessages.success}
          next="open the e-mail and follow its link to get a new key. The link works once and for 24 hours; your current key keeps working until you replace it."
          actions={
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                returningRef.current = true;
                resetResult();
              }}
            >
              Use another address
            </button>
          }
        />
      ) : (
        <form
          className={formStyles.form}
          onSubmit={onSubmit}
          noValidate
          aria-labelledby={headingId}
        >
          <EmailAddressField
            address={address}
            error={errors.emailAddress}
            hint={lostKeyMessages.intro}
          />
          <FormFooter submission={submission} invalid={invalid} />
        </form>
      )}
    </section>
  );
}

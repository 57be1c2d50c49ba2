import { useState, type FormEvent } from 'react';
import { useLocation, useRouteLoaderData } from 'react-router';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { billingPortalRequestSchema } from '#shared/contracts/billing-portal.ts';
import { fieldErrors } from '#shared/contracts/fields.ts';
import {
  portalAccessErrorMessage,
  portalLinkNotices,
  successMessages,
} from '#shared/contracts/messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { EmailAddressField, useEmailAddress } from './EmailAddressField.tsx';
import { FormFooter } from './FormFooter.tsx';
import styles from './Forms.module.css';
import { SuccessView } from './SuccessView.tsx';
import { useSubmission } from './use-submission.ts';

function linkNotice(search: string): string | null {
  const value = new URLSearchParams(search).get('portalLink');
  if (value === 'expired') return portalLinkNotices.expired;
  if (value === 'unavailable') return portalLinkNotices.unavailable;
  return null;
}

/**
 * The "Manage your subscription" dialog's form (docs/product-rules.md#pages, #behaviour): sends the billing-portal e-mail
 * through POST {account service}/account/v1/manage.
 */
export function PortalAccessForm() {
  const location = useLocation();
  const accountApiUrl = useRouteLoaderData<RootData>('root')?.accountApiUrl ?? '';
  const [notice] = useState(() => linkNotice(location.search));
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const address = useEmailAddress(resetResult);
  const emailAddress = address.value;
  const errors = fieldErrors(billingPortalRequestSchema, { emailAddress });
  const invalid = Object.keys(errors).length > 0;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    void submit(async (signal) => {
      const response = await apiFetch(`${accountApiUrl}/account/v1/manage`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ emailAddress: emailAddress.trim() }),
        trustedBase: accountApiUrl,
        signal,
      });
      if (response.ok) return { ok: true };
      return { ok: false, message: portalAccessErrorMessage(await readErrorCode(response)) };
    }, portalAccessErrorMessage(undefined));
  };

  if (resultIsSuccess) {
    return (
      <SuccessView
        title="Check your inbox"
        message={successMessages.portalAccess}
        next="open the e-mail and follow its link to the billing portal. The link works once and for 24 hours."
      />
    );
  }

  return (
    <form
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-label="Manage your subscription"
    >
      {notice ? <Alert tone="info">{notice}</Alert> : null}
      <EmailAddressField
        address={address}
        error={errors.emailAddress}
        hideLabel
        hint={
          <>
            Use the email address you gave when you purchased your subscription; you find it at the
            bottom of your licence key email. We will send you a message with a link to the billing
            portal, where you can upgrade, downgrade or cancel your subscription and edit your
            billing information.
          </>
        }
      />
      <FormFooter submission={submission} invalid={invalid} />
    </form>
  );
}

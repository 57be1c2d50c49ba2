import { useState, type FormEvent } from 'react';
import { useLocation, useRouteLoaderData } from 'react-router';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { trialErrorMessage, trialSuccessMessage } from '#shared/contracts/messages.ts';
import { REFERRAL_CODE_MAX_LENGTH, trialFormSchema } from '#shared/contracts/trial.ts';
import { siteConfig } from '#shared/site-config.ts';
import { FormField } from './FormField.tsx';
import { FormFooter } from './FormFooter.tsx';
import styles from './Forms.module.css';
import { useFormValues } from './use-form-values.ts';
import { SuccessView } from './SuccessView.tsx';
import { useSubmission } from './use-submission.ts';

/** The free-trial dialog's form: POST {account service}/account/v1/licenses/trial (docs/product-rules.md#data, #service-calls). */
export function TrialForm() {
  const location = useLocation();
  const accountApiUrl = useRouteLoaderData<RootData>('root')?.accountApiUrl ?? '';
  const [sentTo, setSentTo] = useState('');
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const { values, invalid, field } = useFormValues(
    trialFormSchema,
    () => ({
      emailAddress: '',
      // A shared link such as `/?modal=trial&ref=PARTNER` fills in the referral code.
      referralCode:
        new URLSearchParams(location.search).get('ref')?.slice(0, REFERRAL_CODE_MAX_LENGTH) ?? '',
    }),
    resetResult,
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    const address = values.emailAddress.trim();
    const code = values.referralCode.trim();
    const query = new URLSearchParams({ emailAddress: address, productId: siteConfig.productId });
    if (code) query.set('referralCode', code);
    setSentTo(address);
    void submit(async (signal) => {
      const response = await apiFetch(`${accountApiUrl}/account/v1/licenses/trial?${query}`, {
        method: 'POST',
        trustedBase: accountApiUrl,
        signal,
      });
      if (response.ok) return { ok: true };
      return { ok: false, message: trialErrorMessage(await readErrorCode(response)) };
    }, trialErrorMessage(undefined));
  };

  if (resultIsSuccess) {
    return (
      <SuccessView
        title="Check your inbox"
        message={trialSuccessMessage(sentTo)}
        next="download Orgsmith for your system and install it while the key is on its way."
        actions={
          <a className="button button-primary" href="/download">
            Download Orgsmith
          </a>
        }
      />
    );
  }

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Free trial">
      <p className={styles.intro}>
        Two months, every feature, no credit card. We send your licence key to the email address you
        enter.
      </p>
      <FormField
        {...field('emailAddress')}
        label="Email address"
        type="email"
        maxLength={254}
        autoComplete="email"
      />
      <FormField
        {...field('referralCode')}
        label="Referral code"
        optional
        maxLength={REFERRAL_CODE_MAX_LENGTH}
        autoComplete="off"
      />
      <p className={styles.note}>
        By requesting a licence key you accept the{' '}
        <a href="/eula/cli" target="_blank" rel="noopener">
          End User License Agreement
        </a>
        .
      </p>
      <FormFooter submission={submission} invalid={invalid} />
    </form>
  );
}

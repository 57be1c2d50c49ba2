import { useState, type FormEvent } from 'react';
import { useLocation, useRouteLoaderData } from 'react-router';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import type { RootData } from '#app/root-data.ts';
import { fieldErrors } from '#shared/contracts/fields.ts';
import { trialErrorMessage, trialSuccessMessage } from '#shared/contracts/messages.ts';
import { REFERRAL_CODE_MAX_LENGTH, trialFormSchema } from '#shared/contracts/trial.ts';
import { siteConfig } from '#shared/site-config.ts';
import { FormField } from './FormField.tsx';
import { FormFooter } from './FormFooter.tsx';
import styles from './Forms.module.css';
import { useSubmission } from './use-submission.ts';

/** The free-trial dialog's form: POST {account service}/account/v1/licenses/trial (docs/product-rules.md#data, #service-calls). */
export function TrialForm() {
  const location = useLocation();
  const accountApiUrl = useRouteLoaderData<RootData>('root')?.accountApiUrl ?? '';
  const [emailAddress, setEmailAddress] = useState('');
  // A shared link such as `/?modal=trial&ref=PARTNER` fills in the referral code.
  const [referralCode, setReferralCode] = useState(
    () => new URLSearchParams(location.search).get('ref')?.slice(0, REFERRAL_CODE_MAX_LENGTH) ?? '',
  );
  const [pristine, setPristine] = useState(true);
  const [sentTo, setSentTo] = useState('');
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const errors = fieldErrors(trialFormSchema, { emailAddress, referralCode });
  const invalid = Object.keys(errors).length > 0;

  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPristine(false);
    resetResult();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    const address = emailAddress.trim();
    const code = referralCode.trim();
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

  const show = !pristine;
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Free trial">
      <p className={styles.intro}>
        Two months, every feature, no credit card. We send your licence key to the email address you
        enter.
      </p>
      <FormField
        name="emailAddress"
        label="Email address"
        type="email"
        value={emailAddress}
        onChange={edit(setEmailAddress)}
        error={errors.emailAddress}
        showError={show}
        maxLength={254}
        autoComplete="email"
      />
      <FormField
        name="referralCode"
        label="Referral code"
        optional
        value={referralCode}
        onChange={edit(setReferralCode)}
        error={errors.referralCode}
        showError={show}
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
      <FormFooter
        submission={submission}
        successMessage={trialSuccessMessage(sentTo)}
        invalid={invalid}
      />
    </form>
  );
}

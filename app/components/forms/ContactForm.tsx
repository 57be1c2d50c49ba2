import { useState, type FormEvent } from 'react';
import { trackContact } from '#app/analytics/analytics.ts';
import { apiFetch } from '#app/http/api-fetch.ts';
import {
  CONTACT_HONEYPOT_FIELD,
  contactLimits,
  contactMessageSchema,
} from '#shared/contracts/contact.ts';
import { failureMessages, successMessages } from '#shared/contracts/messages.ts';
import { FormField } from './FormField.tsx';
import { FormFooter } from './FormFooter.tsx';
import styles from './Forms.module.css';
import { useFormValues } from './use-form-values.ts';
import { SuccessView } from './SuccessView.tsx';
import { useSubmission } from './use-submission.ts';

const empty = { name: '', emailAddress: '', message: '', role: '', company: '' };

/** The contact dialog's form (docs/product-rules.md#pages, #behaviour, #validation): POST /api/submitContactForm. */
export function ContactForm() {
  const [honeypot, setHoneypot] = useState('');
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const { values, invalid, field } = useFormValues(contactMessageSchema, empty, resetResult);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invalid || isProcessing || resultIsSuccess) return;
    trackContact();
    void submit(async (signal) => {
      const response = await apiFetch('/api/submitContactForm', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...values, [CONTACT_HONEYPOT_FIELD]: honeypot }),
        signal,
      });
      return response.ok ? { ok: true } : { ok: false, message: failureMessages.contact };
    }, failureMessages.contact);
  };

  if (resultIsSuccess) {
    return (
      <SuccessView
        title="Message sent"
        message={successMessages.contact}
        next={<>watch your inbox at {values.emailAddress.trim()} for our answer.</>}
      />
    );
  }

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Contact form">
      <p className={styles.intro}>
        Questions about Orgsmith, pricing or our services? Write to us; we usually answer within a
        day.
      </p>
      <FormField
        {...field('name')}
        label="Name"
        maxLength={contactLimits.name}
        autoComplete="name"
      />
      <FormField
        {...field('emailAddress')}
        label="Email address"
        type="email"
        maxLength={254}
        autoComplete="email"
      />
      <FormField
        {...field('message')}
        label="Message"
        multiline
        maxLength={contactLimits.message}
      />
      <div className={styles.pair}>
        <FormField
          {...field('role')}
          label="Role"
          optional
          maxLength={contactLimits.role}
          autoComplete="organization-title"
        />
        <FormField
          {...field('company')}
          label="Company"
          optional
          maxLength={contactLimits.company}
          autoComplete="organization"
        />
      </div>
      <div className={styles.honeypot} aria-hidden="true">
        <label>
          Leave this field empty
          <input
            type="text"
            name={CONTACT_HONEYPOT_FIELD}
            tabIndex={-1}
            autoComplete="off"
            value={honeypot}
            onChange={(event) => setHoneypot(event.target.value)}
          />
        </label>
      </div>
      <FormFooter submission={submission} invalid={invalid} />
    </form>
  );
}

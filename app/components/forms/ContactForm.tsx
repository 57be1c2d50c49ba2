import { useState, type FormEvent } from 'react';
import { trackContact } from '#app/analytics/analytics.ts';
import { apiFetch } from '#app/http/api-fetch.ts';
import {
  CONTACT_HONEYPOT_FIELD,
  contactLimits,
  contactMessageSchema,
} from '#shared/contracts/contact.ts';
import { fieldErrors } from '#shared/contracts/fields.ts';
import { failureMessages, successMessages } from '#shared/contracts/messages.ts';
import { FormField } from './FormField.tsx';
import { FormFooter } from './FormFooter.tsx';
import styles from './Forms.module.css';
import { useSubmission } from './use-submission.ts';

const empty = { name: '', emailAddress: '', message: '', role: '', company: '' };
type Field = keyof typeof empty;

/** The contact dialog's form (docs/product-rules.md#pages, #behaviour, #validation): POST /api/submitContactForm. */
export function ContactForm() {
  const [values, setValues] = useState(empty);
  const [honeypot, setHoneypot] = useState('');
  const [pristine, setPristine] = useState(true);
  const submission = useSubmission();
  const { isProcessing, resultIsSuccess, submit, resetResult } = submission;
  const errors = fieldErrors(contactMessageSchema, values);
  const invalid = Object.keys(errors).length > 0;

  const edit = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setPristine(false);
    resetResult();
  };

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

  const show = !pristine;
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Contact form">
      <p className={styles.intro}>
        Questions about Orgsmith, pricing or our services? Write to us; we usually answer within a
        day.
      </p>
      <FormField
        name="name"
        label="Name"
        value={values.name}
        onChange={edit('name')}
        error={errors.name}
        showError={show}
        maxLength={contactLimits.name}
        autoComplete="name"
      />
      <FormField
        name="emailAddress"
        label="Email address"
        type="email"
        value={values.emailAddress}
        onChange={edit('emailAddress')}
        error={errors.emailAddress}
        showError={show}
        maxLength={254}
        autoComplete="email"
      />
      <FormField
        name="message"
        label="Message"
        multiline
        value={values.message}
        onChange={edit('message')}
        error={errors.message}
        showError={show}
        maxLength={contactLimits.message}
      />
      <div className={styles.pair}>
        <FormField
          name="role"
          label="Role"
          optional
          value={values.role}
          onChange={edit('role')}
          error={errors.role}
          showError={show}
          maxLength={contactLimits.role}
          autoComplete="organization-title"
        />
        <FormField
          name="company"
          label="Company"
          optional
          value={values.company}
          onChange={edit('company')}
          error={errors.company}
          showError={show}
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
      <FormFooter
        submission={submission}
        successMessage={successMessages.contact}
        invalid={invalid}
      />
    </form>
  );
}

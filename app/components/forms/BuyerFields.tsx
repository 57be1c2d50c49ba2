import { useId, type ReactNode } from 'react';
import { buyerAddressLimits } from '#shared/contracts/buyer-address.ts';
import { countriesByName } from '#shared/countries.ts';
import { hasSubdivisions, subdivisionLabel, subdivisionOptions } from '#shared/subdivisions.ts';
import { FormField } from './FormField.tsx';
import styles from './Forms.module.css';
import type { BoundField } from './use-form-values.ts';

/** The fields of a company buyer, each bound to its form's value (`useFormValues().field`). */
export interface BuyerFieldBindings {
  companyName: BoundField;
  /** Absent where the e-mail is asked elsewhere (the card checkout's provider page). */
  email?: BoundField | undefined;
  addressLine: BoundField;
  postalCode: BoundField;
  city: BoundField;
  /** State or province: asked only where the country's addresses have one (decision 219). */
  state: BoundField;
  country: BoundField;
  vatId: BoundField;
  /** Absent where no purchase order is printed (the card checkout). */
  purchaseOrder?: BoundField | undefined;
}

interface BuyerFieldsProps {
  fields: BuyerFieldBindings;
  /** Where the e-mail address is used, under its label. */
  emailHint?: ReactNode;
  /** The VAT ID's problem with the chosen country, shown as soon as both are filled in. */
  vatProblem: string | null;
  limits: { companyName: number; purchaseOrder?: number };
}

/**
 * A company buyer's details as an invoice prints them (decision 179): company, billing e-mail,
 * street, postal code and city, country, VAT ID and purchase order. The quote dialog and the
 * quote's accept page show the same fields with the same labels.
 */
export function BuyerFields({ fields, emailHint, vatProblem, limits }: BuyerFieldsProps) {
  const countryId = `${useId()}-country`;
  const stateId = `${countryId}-state`;
  const { country, state } = fields;
  const countryInvalid = country.showError && Boolean(country.error);
  const stateInvalid = state.showError && Boolean(state.error);
  return (
    <>
      <FormField
        {...fields.companyName}
        label="Company name"
        maxLength={limits.companyName}
        autoComplete="organization"
      />
      {fields.email ? (
        <FormField
          {...fields.email}
          label="Billing email address"
          type="email"
          maxLength={254}
          autoComplete="email"
          hint={emailHint}
        />
      ) : null}
      <FormField
        {...fields.addressLine}
        label="Street and number"
        maxLength={buyerAddressLimits.addressLine}
        autoComplete="address-line1"
      />
      <div className={styles.pair}>
        <FormField
          {...fields.postalCode}
          label="Postal code"
          maxLength={buyerAddressLimits.postalCode}
          autoComplete="postal-code"
        />
        <FormField
          {...fields.city}
          label="City"
          maxLength={buyerAddressLimits.city}
          autoComplete="address-level2"
        />
      </div>
      <div className={styles.field}>
        <label htmlFor={countryId} className={styles.label}>
          Country
        </label>
        <select
          id={countryId}
          name={country.name}
          className={`${styles.control} ${countryInvalid ? styles.invalid : ''}`}
          value={country.value}
          required
          autoComplete="country"
          aria-invalid={countryInvalid || undefined}
          aria-describedby={countryInvalid ? `${countryId}-error` : undefined}
          onChange={(event) => {
            country.onChange(event.target.value);
            // A state belongs to its country: another country starts without one.
            if (state.value) state.onChange('');
          }}
        >
          <option value="">Choose…</option>
          {countriesByName.map((entry) => (
            <option key={entry.code} value={entry.code}>
              {entry.name}
            </option>
          ))}
        </select>
        {countryInvalid ? (
          <p id={`${countryId}-error`} className={styles.error}>
            {country.error}
          </p>
        ) : null}
      </div>
      {hasSubdivisions(country.value) ? (
        <div className={styles.field}>
          <label htmlFor={stateId} className={styles.label}>
            {subdivisionLabel(country.value)}
          </label>
          <select
            id={stateId}
            name={state.name}
            className={`${styles.control} ${stateInvalid ? styles.invalid : ''}`}
            value={state.value}
            required
            autoComplete="address-level1"
            aria-invalid={stateInvalid || undefined}
            aria-describedby={stateInvalid ? `${stateId}-error` : undefined}
            onChange={(event) => state.onChange(event.target.value)}
          >
            <option value="">Choose…</option>
            {subdivisionOptions(country.value).map((entry) => (
              <option key={entry.code} value={entry.code}>
                {entry.name}
              </option>
            ))}
          </select>
          {stateInvalid ? (
            <p id={`${stateId}-error`} className={styles.error}>
              {state.error}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className={styles.pair}>
        <FormField
          {...fields.vatId}
          error={fields.vatId.error ?? vatProblem ?? undefined}
          label="VAT ID"
          optional
          maxLength={buyerAddressLimits.vatIdInput}
          autoComplete="off"
          placeholder="e.g. FR40303265045"
        />
        {fields.purchaseOrder ? (
          <FormField
            {...fields.purchaseOrder}
            label="Purchase order"
            optional
            maxLength={limits.purchaseOrder}
            autoComplete="off"
          />
        ) : null}
      </div>
    </>
  );
}

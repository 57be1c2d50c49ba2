import { useId, type ReactNode } from 'react';
import { buyerAddressLimits } from '#shared/contracts/buyer-address.ts';
import { countriesByName } from '#shared/countries.ts';
import { FormField } from './FormField.tsx';
import styles from './Forms.module.css';
import type { BoundField } from './use-form-values.ts';

/** The fields of a company buyer, each bound to its form's value (`useFormValues().field`). */
export interface BuyerFieldBindings {
  companyName: BoundField;
  email: BoundField;
  addressLine: BoundField;
  postalCode: BoundField;
  city: BoundField;
  country: BoundField;
  vatId: BoundField;
  purchaseOrder: BoundField;
}

interface BuyerFieldsProps {
  fields: BuyerFieldBindings;
  /** Where the e-mail address is used, under its label. */
  emailHint: ReactNode;
  /** The VAT ID's problem with the chosen country, shown as soon as both are filled in. */
  vatProblem: string | null;
  limits: { companyName: number; purchaseOrder: number };
}

/**
 * A company buyer's details as an invoice prints them (decision 179): company, billing e-mail,
 * street, postal code and city, country, VAT ID and purchase order. The quote dialog and the
 * quote's accept page show the same fields with the same labels.
 */
export function BuyerFields({ fields, emailHint, vatProblem, limits }: BuyerFieldsProps) {
  const countryId = `${useId()}-country`;
  const country = fields.country;
  const countryInvalid = country.showError && Boolean(country.error);
  return (
    <>
      <FormField
        {...fields.companyName}
        label="Company name"
        maxLength={limits.companyName}
        autoComplete="organization"
      />
      <FormField
        {...fields.email}
        label="Billing email address"
        type="email"
        maxLength={254}
        autoComplete="email"
        hint={emailHint}
      />
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
          onChange={(event) => country.onChange(event.target.value)}
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
        <FormField
          {...fields.purchaseOrder}
          label="Purchase order"
          optional
          maxLength={limits.purchaseOrder}
          autoComplete="off"
        />
      </div>
    </>
  );
}

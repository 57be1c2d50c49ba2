import { useCallback, useState, type ReactNode } from 'react';
import { FormField } from './FormField.tsx';

/** The address a one-field form sends and whether it has been edited yet. */
export interface EmailAddressState {
  value: string;
  pristine: boolean;
  onChange: (value: string) => void;
}

/**
 * State of a form whose only input is an e-mail address (docs/product-rules.md#behaviour): any edit marks the form as no
 * longer pristine and resets the previous result.
 */
export function useEmailAddress(resetResult: () => void): EmailAddressState {
  const [value, setValue] = useState('');
  const [pristine, setPristine] = useState(true);
  const onChange = useCallback(
    (next: string) => {
      setValue(next);
      setPristine(false);
      resetResult();
    },
    [resetResult],
  );
  return { value, pristine, onChange };
}

export interface EmailAddressFieldProps {
  address: EmailAddressState;
  /** The address's validation message, shown once the form is no longer pristine (docs/product-rules.md#validation). */
  error: string | undefined;
  hint: ReactNode;
  hideLabel?: boolean;
}

/** The "Email address" input of the manage-subscription and lost-key forms. */
export function EmailAddressField({
  address,
  error,
  hint,
  hideLabel = false,
}: EmailAddressFieldProps) {
  return (
    <FormField
      name="emailAddress"
      label="Email address"
      hideLabel={hideLabel}
      type="email"
      placeholder="Email address"
      value={address.value}
      onChange={address.onChange}
      error={error}
      showError={!address.pristine}
      maxLength={254}
      autoComplete="email"
      hint={hint}
    />
  );
}

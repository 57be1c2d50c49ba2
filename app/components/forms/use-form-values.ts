import { useState } from 'react';
import type { z } from 'zod/mini';
import { fieldErrors } from '#shared/contracts/fields.ts';

/** What `FormField` needs of one field: its value, change handler and validation state. */
export interface BoundField {
  name: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  showError: boolean;
}

/**
 * The text values of a dialog's form, validated by its contract's schema on every render.
 * Errors show once the form is no longer pristine (docs/product-rules.md#validation); any edit
 * clears the previous result (`onEdit`, the submission's `resetResult`).
 */
export function useFormValues<Values extends { [Name in keyof Values]: string }>(
  schema: z.ZodMiniType,
  initial: Values | (() => Values),
  onEdit: () => void,
) {
  const [values, setValues] = useState(initial);
  const [pristine, setPristine] = useState(true);
  const errors = fieldErrors(schema, values);

  /** The props binding `FormField` to the value `name`. */
  const field = <Name extends keyof Values & string>(name: Name): BoundField => ({
    name,
    value: values[name],
    onChange: (value) => {
      setValues((current) => ({ ...current, [name]: value }));
      setPristine(false);
      onEdit();
    },
    error: errors[name],
    showError: !pristine,
  });

  return { values, invalid: Object.keys(errors).length > 0, field };
}

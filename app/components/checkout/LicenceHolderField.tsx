import { licenceHolderMessages } from '#shared/contracts/licence-holder.ts';
import { FormField } from '../forms/FormField.tsx';
import type { BoundField } from '../forms/use-form-values.ts';

/**
 * "Licence holder e-mail (optional)" of a paid checkout (decision 223): who receives the key when
 * it is not the billing mailbox; the invoice or receipt still goes to the billing address.
 */
export function LicenceHolderField({ field }: { field: BoundField }) {
  return (
    <FormField
      {...field}
      label={licenceHolderMessages.label}
      type="email"
      optional
      maxLength={254}
      autoComplete="off"
      hint={licenceHolderMessages.hint}
    />
  );
}

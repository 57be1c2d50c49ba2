import * as z from 'zod/mini';

/** The longest address the holder field takes, as the billing e-mail (RFC 5321's path limit). */
const EMAIL_MAX_LENGTH = 254;

/**
 * The licence holder (decision 223): who receives the licence key of a paid checkout when it is
 * not the billing mailbox, e.g. the developer who uses the CLI while accounts payable buys. The
 * invoice or receipt, payment confirmations and reminders still go to the billing address.
 */
export const licenceHolderMessages = {
  /** Shown with "(optional)" after it, as every optional field. */
  label: 'Licence holder e-mail',
  hint: 'Who receives the licence key. The invoice or receipt still goes to the billing address.',
  invalid: 'Enter the licence holder’s e-mail address, or leave the field empty.',
  notForStarter:
    'Starter is free: its licence key goes to the address that orders it. Leave the licence holder empty.',
  notWithTrialKey:
    'A trial key to convert keeps its own licence address: leave the licence holder empty, or the trial key.',
} as const;

/**
 * The optional holder's address, checked as the billing e-mail is (trimmed, at most 254
 * characters, an e-mail address); empty counts as none. The service treats an address of the
 * same mailbox as the billing address as none.
 */
export const licenceHolderEmailField = z.pipe(
  z.pipe(
    z.optional(z.nullable(z.string({ error: licenceHolderMessages.invalid }).check(z.trim()))),
    z.transform((value) => (value ? value : undefined)),
  ),
  z.optional(
    z
      .string()
      .check(
        z.maxLength(EMAIL_MAX_LENGTH, licenceHolderMessages.invalid),
        z.email({ error: licenceHolderMessages.invalid }),
      ),
  ),
);

import * as z from 'zod/mini';
import { emailAddressField, optionalLine, requiredLine, requiredText } from './fields.ts';
import { validationMessages as m } from './messages.ts';

/** A hidden form field people never fill in; bots that fill every field do (decision 054). */
export const CONTACT_HONEYPOT_FIELD = 'website';

export const contactLimits = { name: 200, message: 5000, role: 200, company: 200 } as const;

/** `POST /api/submitContactForm` body (docs/product-rules.md#data contact message, §5 rules). */
export const contactMessageSchema = z.strictObject({
  name: requiredLine(m.nameRequired, contactLimits.name, m.nameTooLong),
  emailAddress: emailAddressField,
  message: requiredText(m.messageRequired, contactLimits.message, m.messageTooLong),
  role: optionalLine(contactLimits.role, m.roleTooLong),
  company: optionalLine(contactLimits.company, m.companyTooLong),
  [CONTACT_HONEYPOT_FIELD]: z.optional(z.nullable(z.string())),
});

export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;

import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';

/** A contact-form message as it reaches the support inbox (Reply-To is the visitor). */
export function contactMessageEmail(input: {
  name: string;
  email: string;
  message: string;
  role?: string | null;
  company?: string | null;
  receivedAt: Date;
  publicBaseUrl: string;
}): RenderedEmail {
  const { name, email, message, role, company, receivedAt, publicBaseUrl } = input;
  const facts = [
    { label: 'Name', value: name },
    { label: 'Email', value: email },
    ...(role ? [{ label: 'Role', value: role }] : []),
    ...(company ? [{ label: 'Company', value: company }] : []),
    { label: 'Received', value: receivedAt.toISOString() },
  ];
  return renderEmail({
    subject: `Contact form: ${name}${company ? ` (${company})` : ''}`,
    publicBaseUrl,
    blocks: [
      {
        kind: 'paragraph',
        text: `A new message arrived through the contact form on ${publicBaseUrl}.`,
      },
      { kind: 'facts', items: facts },
      { kind: 'quote', text: message },
      { kind: 'note', text: `Reply to this e-mail to answer ${name} directly.` },
    ],
  });
}

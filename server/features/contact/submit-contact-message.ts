import { CONTACT_HONEYPOT_FIELD, type ContactMessage } from '#shared/contracts/contact.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { contactMessageEmail } from './emails/contact-message.ts';
import type { Logger } from '#server/platform/logger.ts';
import { createContactMessageRepository } from './contact-repository.ts';

export interface SubmitContactMessageDeps {
  db: Database;
  clock: () => Date;
  logger: Logger;
  supportEmail: string;
  publicBaseUrl: string;
}

export type SubmitContactMessageResult = { outcome: 'stored' } | { outcome: 'dropped-as-spam' };

/**
 * Stores a contact message and queues it for the support inbox (Reply-To: the visitor), in one
 * transaction. A filled honeypot field marks a bot: nothing is stored or sent (decision 054).
 */
/** The contact domain's dependencies, from the app's (`logger`: the request's). */
export function contactDepsOf(deps: FeaturePorts, logger: Logger): SubmitContactMessageDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    logger,
    supportEmail: deps.env.SUPPORT_EMAIL,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
  };
}

export async function submitContactMessage(
  deps: SubmitContactMessageDeps,
  input: ContactMessage,
): Promise<SubmitContactMessageResult> {
  if (input[CONTACT_HONEYPOT_FIELD]) {
    deps.logger.info('contact message dropped: honeypot field filled');
    return { outcome: 'dropped-as-spam' };
  }
  const now = deps.clock();
  await deps.db.transaction(async (tx) => {
    await createContactMessageRepository(tx).insert({
      email: input.emailAddress,
      name: input.name,
      message: input.message,
      role: input.role ?? null,
      company: input.company ?? null,
      createdAt: now,
    });
    const email = contactMessageEmail({
      name: input.name,
      email: input.emailAddress,
      message: input.message,
      role: input.role,
      company: input.company,
      receivedAt: now,
      publicBaseUrl: deps.publicBaseUrl,
    });
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'contact-message', to: deps.supportEmail, replyTo: input.emailAddress },
      now,
    );
  });
  return { outcome: 'stored' };
}

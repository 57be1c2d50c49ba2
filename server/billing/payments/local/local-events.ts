import type {
  HandledEventType,
  PaymentEvent,
} from '#server/billing/subscriptions/payment-types.ts';
import { localId } from './local-payment-repository.ts';

/**
 * The events the local provider raises: the same types Stripe would send for the same change, so
 * they go through the same handler (record the id, re-read the subscription, sync).
 */
export function localEvents(subscriptionId: string, ...types: HandledEventType[]): PaymentEvent[] {
  return types.map((type) => ({ id: localId('evt_local'), type, subscriptionId }));
}

/** Hands local events to the payment event handler (wired in server/app.ts). */
export type DispatchPaymentEvents = (events: PaymentEvent[]) => Promise<void>;

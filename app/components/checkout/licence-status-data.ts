import type { RouterContextProvider } from 'react-router';
import type { CheckoutStatus, CheckoutStatusReading } from '#shared/contracts/checkout.ts';
import { siteContext } from '#app/context.ts';

export type { CheckoutStatus, CheckoutStatusReading };

/**
 * For the checkout-success route's loader: the licence status of `?session_id=…` (the provider
 * puts it there), read on the server through the `checkout` site service, which may refuse a
 * client that looked up too many sessions (decision 125).
 */
export async function licenceStatusFor(args: {
  request: Request;
  context: Readonly<RouterContextProvider>;
}): Promise<CheckoutStatusReading> {
  const sessionId = new URL(args.request.url).searchParams.get('session_id');
  const service = args.context.get(siteContext).services.checkout;
  return service ? service.readStatus(sessionId) : { status: { state: 'unknown' } };
}

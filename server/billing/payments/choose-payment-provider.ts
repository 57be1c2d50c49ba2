import { isIP } from 'node:net';

export type PaymentProviderName = 'stripe' | 'local';

export interface PaymentChoice {
  provider: PaymentProviderName;
  /**
   * Test payments were asked for on purpose (`PAYMENT_PROVIDER=local`): every page then says so,
   * because the built-in provider's test cards buy real licences (decision 126).
   */
  testModeNotice: boolean;
  /**
   * Test payments for want of keys: the server listens on loopback only, so nobody but this
   * machine can reach them, whatever PUBLIC_BASE_URL or a request's Host says (decision 156).
   */
  loopbackOnly: boolean;
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`: names and addresses only this machine reaches. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && host === '::1';
}

/** An origin whose host is a loopback name or address (see `isLoopbackHost`). */
export function isLoopbackOrigin(origin: string): boolean {
  return isLoopbackHost(new URL(origin).hostname);
}

/**
 * Which payment provider serves checkout (decisions 126 and 156). Stripe when asked for or when
 * its key is set; the built-in TEST-MODE provider anywhere when asked for by name (every page then
 * says so), or without keys on loopback only: on a loopback origin and no `HOST` beyond loopback.
 * Returns the reason as a message when the combination would sell through test cards in public
 * or through a Stripe account whose events never arrive.
 */
export function choosePaymentProvider(env: {
  PAYMENT_PROVIDER?: PaymentProviderName | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  PUBLIC_BASE_URL: string;
  /** The address the server is told to listen on; unset = chosen here. */
  HOST?: string | undefined;
}): PaymentChoice | { refused: string } {
  if (env.PAYMENT_PROVIDER === 'local') {
    return { provider: 'local', testModeNotice: true, loopbackOnly: false };
  }
  const listensBeyondLoopback = env.HOST !== undefined && !isLoopbackHost(env.HOST);
  const reachable = listensBeyondLoopback || !isLoopbackOrigin(env.PUBLIC_BASE_URL);
  const wantsStripe = env.PAYMENT_PROVIDER === 'stripe' || Boolean(env.STRIPE_SECRET_KEY);
  if (!wantsStripe && !reachable) {
    return { provider: 'local', testModeNotice: false, loopbackOnly: true };
  }
  if (!env.STRIPE_SECRET_KEY || (reachable && !env.STRIPE_WEBHOOK_SECRET)) {
    const where = listensBeyondLoopback
      ? `when listening on HOST=${env.HOST}`
      : `on ${env.PUBLIC_BASE_URL}`;
    const wayOut = listensBeyondLoopback
      ? ', or leave HOST unset to listen on this machine only'
      : '';
    return {
      refused:
        `STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required to take payments ${where}` +
        ` (set PAYMENT_PROVIDER=local to take test payments there on purpose${wayOut})`,
    };
  }
  return { provider: 'stripe', testModeNotice: false, loopbackOnly: false };
}

/**
 * Why a server may not start with these keys (decision 206): a Stripe secret key without the
 * webhook secret takes payments whose events are all refused, so no purchase ever completes.
 * `npm run admin -- stripe sync` needs only the secret key and is not refused.
 */
export function webhookSecretMissing(env: {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  payments: PaymentChoice;
}): string | undefined {
  if (env.payments.provider !== 'stripe' || !env.STRIPE_SECRET_KEY || env.STRIPE_WEBHOOK_SECRET) {
    return undefined;
  }
  return (
    'STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY: the signing secret (whsec_…) of ' +
    "this site's Stripe webhook endpoint (docs/payments.md); without it every Stripe event is refused"
  );
}

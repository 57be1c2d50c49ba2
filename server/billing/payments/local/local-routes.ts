import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import { EMAIL_ADDRESS_PATTERN } from '#shared/contracts/fields.ts';
import { freeLicenceLimitMessage, validationMessages } from '#shared/contracts/messages.ts';
import { priceConfig } from '#shared/pricing/index.ts';
import { paymentDocumentUrl } from '#server/billing/documents/payment-document-link.ts';
import { paymentDocumentSchema, vatOfPayment } from '#server/billing/documents/payment-document.ts';
import { createPaymentDocumentRepository } from '#server/billing/documents/payment-document-repository.ts';
import { documentStanding } from '#server/billing/documents/document-standing.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { issueCsrfToken, readCsrfCookie } from '#server/platform/csrf/csrf.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { createFreeLicenceRepository } from '#server/licensing/licences/free-licence-repository.ts';
import { syncDepsOf, handlePaymentEvent } from '#server/billing/subscriptions/sync-subscription.ts';
import type { PaymentEvent } from '#server/billing/subscriptions/payment-types.ts';
import { checkCard, type CardField } from './local-cards.ts';
import { completeLocalCheckout } from './complete-local-checkout.ts';
import {
  buyerOfChange,
  cancelLocalSubscription,
  changeLocalPlan,
  prorationFor,
  readPlanChange,
  resumeLocalSubscription,
  updateLocalCard,
  type PlanChangeRequest,
  type PortalActionError,
} from './manage-local-subscription.ts';
import { createLocalPaymentRepository } from './local-payment-repository.ts';
import type { CheckoutField } from './pages/checkout-page.tsx';
import { localPages } from './pages/load-pages.ts';
import type { PortalSubscriptionView } from './pages/portal-page.tsx';
import { currencyUnchangeableMessage } from './pages/portal-messages.ts';
import { localStylesheet } from './local-styles.ts';

const text = (max: number) => z.optional(z.string().check(z.maxLength(max)));

/** The hosted-checkout form; every field optional here so a missing one is a field error. */
const checkoutForm = z.object({
  email: text(254),
  cardNumber: text(40),
  cardExpiry: text(10),
  cardCvc: text(8),
});
const cardForm = z.object({ cardNumber: text(40), cardExpiry: text(10), cardCvc: text(8) });
/** A plan change, from the preview link (query) or the confirm form; readPlanChange judges it. */
const planChangeForm = z.object({
  edition: text(20),
  quantity: text(10),
  billingPeriod: text(20),
  currency: text(10),
});

/** The error a malformed field of a plan change is answered with. */
const planFieldErrors: Record<string, PortalActionError> = {
  edition: 'PlanInvalid',
  quantity: 'QuantityInvalid',
  billingPeriod: 'PeriodInvalid',
  currency: 'CurrencyUnchangeable',
};

function parsePlanChange(
  raw: unknown,
): { ok: true; request: PlanChangeRequest } | { ok: false; code: PortalActionError } {
  const parsed = planChangeForm.safeParse(raw);
  if (parsed.success) return { ok: true, request: parsed.data };
  const field = String(parsed.error.issues[0]?.path[0] ?? 'edition');
  return { ok: false, code: planFieldErrors[field] ?? 'PlanInvalid' };
}

const portalErrors: Record<PortalActionError, string> = {
  SessionExpired: 'This billing portal link has expired. Ask for a new one from the website.',
  SubscriptionNotFound: 'This subscription is not part of this billing portal.',
  SubscriptionNotChangeable: 'This subscription cannot be changed in its current state.',
  PlanInvalid: 'Choose one of the plans: Starter, Pro or Enterprise.',
  QuantityInvalid: `Pro covers ${priceConfig.proStartSize} to ${priceConfig.enterpriseStartSize - 1} orgs.`,
  PeriodInvalid: 'Choose monthly or yearly billing.',
  CurrencyUnchangeable: currencyUnchangeableMessage,
  NoChange: 'That is already your plan.',
  CardRequired: 'Add a card first: a paid plan needs a payment method.',
  CardDeclined: 'Your card was declined. Update your card and try again.',
};

/** A declined card is the one thing that went wrong: its message alone, not the generic billing error. */
export const cardDeclinedAtCheckout = {
  title: 'Your card was declined.',
  message: 'Nothing was charged. Try another card, or ask your bank why it refused the payment.',
};

const portalNotices: Record<string, string> = {
  'plan-changed': 'Your plan was changed. The licence reflects it immediately.',
  'cancellation-scheduled': 'Your subscription will be cancelled at the end of the billing period.',
  cancelled: 'Your subscription was cancelled.',
  resumed: 'Your subscription continues: the cancellation was withdrawn.',
  'card-updated': 'Your card was saved.',
  'invoice-paid': 'Your card was saved and the open invoice is paid. Your licence is active.',
  'card-declined': 'Your card was saved, but it was declined for the open invoice.',
};

function isPortalActionError(value: string | undefined): value is PortalActionError {
  return value !== undefined && Object.hasOwn(portalErrors, value);
}

/** Checkout and portal URLs are bearer links: never cached, never sent on as a referrer. */
function bearerLinkHeaders(c: Context<AppEnv>) {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The local payment provider's pages on our own server (decision 062): hosted checkout,
 * billing portal and their stylesheet. Every change raises the events Stripe would send and
 * hands them to the same handler as webhooks, before the buyer is redirected.
 */
export function localPaymentRoutes(deps: BillingPorts): Hono<AppEnv> {
  const secureCookie = deps.env.PUBLIC_BASE_URL.startsWith('https:');
  const app = new Hono<AppEnv>();
  const db = deps.database.db;
  const repository = createLocalPaymentRepository(db);
  const manage = { db, clock: deps.clock };

  async function dispatch(c: Context<AppEnv>, events: PaymentEvent[]): Promise<void> {
    const sync = syncDepsOf(deps);
    for (const event of events) {
      try {
        await handlePaymentEvent(sync, event);
      } catch (error) {
        // The change is made; the success page and the lifecycle job sync it again.
        c.get('log').error({ err: error, eventId: event.id }, 'local payment event failed');
      }
    }
  }

  /** Without the CSRF cookie no form could be posted: set it with a self-refreshing page. */
  async function needsCookie(c: Context<AppEnv>): Promise<Response | undefined> {
    if (readCsrfCookie(c, secureCookie)) return undefined;
    const url = new URL(c.req.url);
    if (url.searchParams.has('cookie')) {
      const { messagePage } = await localPages.message();
      return c.html(
        messagePage({
          title: 'Cookies needed',
          paragraphs: [
            'This page needs a cookie to protect its forms. Please allow cookies for this site and reload.',
          ],
          link: { href: '/', label: 'Go to the home page' },
        }),
        400,
      );
    }
    url.searchParams.set('cookie', '1');
    issueCsrfToken(c, secureCookie);
    const { cookieInterstitialPage } = await localPages.message();
    return c.html(cookieInterstitialPage(`${url.pathname}${url.search}`));
  }

  app.get('/billing/local/styles.css', (c) => {
    c.header('Content-Type', 'text/css; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(localStylesheet);
  });

  if (deps.payments.name !== 'local') return app;

  const sessionGone = async (c: Context<AppEnv>, status: 404 | 410) => {
    const { messagePage } = await localPages.message();
    return c.html(
      messagePage({
        title: status === 404 ? 'Checkout not found' : 'Checkout expired',
        paragraphs: [
          status === 404
            ? 'This checkout link is not valid.'
            : 'This checkout has expired. Start again from the pricing page; nothing was charged.',
        ],
        link: { href: '/pricing', label: 'Back to pricing' },
      }),
      status,
    );
  };

  app.get('/billing/local/checkout/:id', async (c) => {
    bearerLinkHeaders(c);
    const session = await repository.findCheckoutSession(c.req.param('id'));
    if (!session) return sessionGone(c, 404);
    if (session.status === 'complete') {
      return c.redirect(session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', session.id), 303);
    }
    if (session.status === 'expired' || session.expiresAt <= deps.clock()) {
      return sessionGone(c, 410);
    }
    const cookie = await needsCookie(c);
    if (cookie) return cookie;
    const { checkoutPage } = await localPages.checkout();
    return c.html(
      checkoutPage({
        session,
        csrfToken: readCsrfCookie(c, secureCookie) ?? '',
        values: { email: '', cardNumber: '', cardExpiry: '', cardCvc: '' },
        errors: {},
      }),
    );
  });

  app.post('/billing/local/checkout/:id', async (c) => {
    bearerLinkHeaders(c);
    const session = await repository.findCheckoutSession(c.req.param('id'));
    if (!session) return sessionGone(c, 404);
    const parsed = checkoutForm.safeParse(await c.req.parseBody());
    const form = parsed.success ? parsed.data : {};
    const values: Record<CheckoutField, string> = {
      email: str(form.email).trim(),
      cardNumber: str(form.cardNumber),
      cardExpiry: str(form.cardExpiry),
      cardCvc: str(form.cardCvc),
    };
    const errors: Partial<Record<CheckoutField, string>> = {};
    const email = session.customerEmail ?? values.email;
    if (!email) errors.email = validationMessages.emailRequired;
    else if (!EMAIL_ADDRESS_PATTERN.test(email)) errors.email = validationMessages.emailInvalid;
    const now = deps.clock();
    const paid = session.edition !== 'Starter';
    let card = null;
    if (paid) {
      const checked = checkCard(values, now);
      if (checked.ok) card = checked.card;
      else Object.assign(errors, checked.errors satisfies Partial<Record<CardField, string>>);
    }
    const { checkoutPage } = await localPages.checkout();
    const render = (status: 400 | 402 | 429, failure?: { title: string; message: string }) =>
      c.html(
        checkoutPage({
          session,
          csrfToken: readCsrfCookie(c, secureCookie) ?? '',
          values,
          errors,
          failure,
        }),
        status,
      );
    if (Object.keys(errors).length > 0) return render(400);
    // The free plan mails a key to whatever address was typed: refused here, before anything is
    // written, once the address has had its free licences for the day (decision 158).
    if (!paid && session.status === 'open') {
      const decision = await createFreeLicenceRepository(db).allowance(
        normalizeEmailAddress(email),
      );
      if (!decision.allowed) {
        c.header('Retry-After', String(decision.retryAfterSeconds));
        return render(429, {
          title: 'Too many free licences for this address.',
          message: freeLicenceLimitMessage(decision.retryAfterSeconds),
        });
      }
    }

    const result = await completeLocalCheckout(manage, { sessionId: session.id, email, card });
    if (result.ok) {
      await dispatch(c, result.events);
      return c.redirect(result.redirectTo, 303);
    }
    switch (result.code) {
      case 'SessionNotFound':
        return sessionGone(c, 404);
      case 'SessionExpired':
        return sessionGone(c, 410);
      case 'CardRequired':
        errors.cardNumber = 'Enter the card number.';
        return render(400);
      case 'CardDeclined':
        c.get('log').info({ sessionId: session.id }, 'local checkout: card declined');
        return render(402, cardDeclinedAtCheckout);
    }
  });

  async function renderPortal(
    c: Context<AppEnv>,
    options: {
      status?: 200 | 400 | 402;
      cardValues?: Record<'cardNumber' | 'cardExpiry' | 'cardCvc', string>;
      cardErrors?: Partial<Record<CardField, string>>;
      notice?: { tone: 'success' | 'danger' | 'info'; text: string };
    } = {},
  ) {
    const portalSessionId = c.req.param('id') ?? '';
    const now = deps.clock();
    const session = await repository.findPortalSession(portalSessionId);
    const customer = session ? await repository.findCustomer(session.customerId) : undefined;
    if (!session || !customer || session.expiresAt <= now) {
      const { messagePage } = await localPages.message();
      return c.html(
        messagePage({
          title: 'Link expired',
          paragraphs: [portalErrors.SessionExpired],
          link: { href: '/?modal=portal-access', label: 'Ask for a new link' },
        }),
        410,
      );
    }
    const query = c.req.query();
    const subscriptions: PortalSubscriptionView[] = [];
    const documentsRepository = createPaymentDocumentRepository(db);
    const link = (number: string) => ({
      number,
      url: paymentDocumentUrl(deps.env.PUBLIC_BASE_URL, deps.secretKey, number),
    });
    for (const subscription of await repository.subscriptionsOfCustomer(customer.id)) {
      const invoices = await repository.invoicesOf(subscription.id);
      // Each invoice's document to download, with its gross and where it stands (decision 220).
      const documents: PortalSubscriptionView['documents'] = new Map();
      for (const row of await documentsRepository.listForSubscription(subscription.id)) {
        if (row.kind === 'credit_note') continue;
        const creditNotes = await documentsRepository.creditNotesOf(row.number);
        documents.set(row.providerInvoiceId, {
          ...link(row.number),
          grossMinor: row.grossMinor,
          standing: documentStanding(row, creditNotes),
          creditNotes: creditNotes.map((note) => link(note.number)),
        });
      }
      const item: PortalSubscriptionView = {
        subscription,
        invoices,
        documents,
        vat: vatOfPayment(buyerOfChange(invoices)),
      };
      if (query.change === subscription.id) {
        const parsed = parsePlanChange(query);
        const read = parsed.ok ? readPlanChange(parsed.request, subscription) : parsed;
        if (read.ok) {
          item.preview = {
            change: read.change,
            proration: prorationFor(subscription, read.change, now),
            vat: item.vat,
          };
        } else {
          item.planError = portalErrors[read.code];
        }
      }
      if (query.subscription === subscription.id && isPortalActionError(query.error)) {
        item.planError = portalErrors[query.error];
      }
      subscriptions.push(item);
    }
    const done = query.done ? portalNotices[query.done] : undefined;
    const { portalPage } = await localPages.portal();
    return c.html(
      portalPage({
        portalSessionId,
        customer,
        subscriptions,
        returnUrl: session.returnUrl,
        csrfToken: readCsrfCookie(c, secureCookie) ?? '',
        now,
        notice:
          options.notice ??
          (done
            ? { tone: query.done === 'card-declined' ? 'danger' : 'success', text: done }
            : undefined),
        card: {
          values: options.cardValues ?? { cardNumber: '', cardExpiry: '', cardCvc: '' },
          errors: options.cardErrors ?? {},
        },
      }),
      options.status ?? 200,
    );
  }

  app.get('/billing/local/invoice/:id', async (c) => {
    bearerLinkHeaders(c);
    const invoice = await repository.findInvoice(c.req.param('id'));
    // Only by its long id (a bearer link), never by its short number.
    if (!invoice || invoice.id !== c.req.param('id') || invoice.dueAt === null) {
      const { messagePage } = await localPages.message();
      return c.html(
        messagePage({
          title: 'Invoice not found',
          paragraphs: ['This invoice link is not valid.'],
          link: { href: '/', label: 'Go to the home page' },
        }),
        404,
      );
    }
    const { invoicePage } = await localPages.invoice();
    const issued = await createPaymentDocumentRepository(db).findByProviderInvoice(
      'local',
      invoice.id,
    );
    const link = (number: string) => ({
      number,
      url: paymentDocumentUrl(deps.env.PUBLIC_BASE_URL, deps.secretKey, number),
    });
    const document = issued && link(issued.number);
    const creditNotes = issued
      ? (await createPaymentDocumentRepository(db).creditNotesOf(issued.number)).map((note) =>
          link(note.number),
        )
      : [];
    // The account the invoice names: its document's, frozen when issued, else today's.
    const frozen = issued ? paymentDocumentSchema.safeParse(issued.document) : undefined;
    const bankAccount =
      (frozen?.success ? frozen.data.bankAccount : undefined) ??
      deps.env.bankAccounts[invoice.currency] ??
      null;
    return c.html(invoicePage({ invoice, now: deps.clock(), document, bankAccount, creditNotes }));
  });

  app.get('/billing/local/portal/:id', async (c) => {
    bearerLinkHeaders(c);
    const cookie = await needsCookie(c);
    if (cookie) return cookie;
    return renderPortal(c);
  });

  const back = (c: Context<AppEnv>, params: Record<string, string>) =>
    c.redirect(
      `/billing/local/portal/${c.req.param('id')}?${new URLSearchParams(params).toString()}`,
      303,
    );

  app.post('/billing/local/portal/:id/subscriptions/:subscriptionId/:action', async (c) => {
    bearerLinkHeaders(c);
    const input = {
      portalSessionId: c.req.param('id'),
      subscriptionId: c.req.param('subscriptionId'),
    };
    const action = c.req.param('action');
    let result;
    if (action === 'plan') {
      const parsed = parsePlanChange(await c.req.parseBody());
      if (!parsed.ok) return back(c, { error: parsed.code, subscription: input.subscriptionId });
      result = await changeLocalPlan(manage, { ...input, request: parsed.request });
    } else if (action === 'cancel') {
      result = await cancelLocalSubscription(manage, input);
    } else if (action === 'resume') {
      result = await resumeLocalSubscription(manage, input);
    } else {
      return c.notFound();
    }
    if (!result.ok) {
      if (result.code === 'SessionExpired') return renderPortal(c);
      return back(c, { error: result.code, subscription: input.subscriptionId });
    }
    await dispatch(c, result.events);
    return back(c, { done: result.outcome });
  });

  app.post('/billing/local/portal/:id/card', async (c) => {
    bearerLinkHeaders(c);
    const parsed = cardForm.safeParse(await c.req.parseBody());
    const form = parsed.success ? parsed.data : {};
    const values = {
      cardNumber: str(form.cardNumber),
      cardExpiry: str(form.cardExpiry),
      cardCvc: str(form.cardCvc),
    };
    const checked = checkCard(values, deps.clock());
    if (!checked.ok)
      return renderPortal(c, { status: 400, cardValues: values, cardErrors: checked.errors });
    const result = await updateLocalCard(manage, {
      portalSessionId: c.req.param('id'),
      card: checked.card,
    });
    if (!result.ok) return renderPortal(c);
    await dispatch(c, result.events);
    return back(c, { done: result.outcome });
  });

  return app;
}

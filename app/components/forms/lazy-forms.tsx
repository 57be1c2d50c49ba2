import { lazy, Suspense, type ReactNode } from 'react';
import styles from './Forms.module.css';

/**
 * The dialogs' forms load on demand: their code (and the shared validation schemas) stays out of
 * the bundle every page downloads. A server-rendered open dialog still arrives complete.
 */
const ContactForm = lazy(() =>
  import('./ContactForm.tsx').then((module) => ({ default: module.ContactForm })),
);
const TrialForm = lazy(() =>
  import('./TrialForm.tsx').then((module) => ({ default: module.TrialForm })),
);
const QuoteForm = lazy(() =>
  import('./QuoteForm.tsx').then((module) => ({ default: module.QuoteForm })),
);
const CheckoutForm = lazy(() =>
  import('../checkout/CheckoutForm.tsx').then((module) => ({ default: module.CheckoutForm })),
);
const PortalAccessForm = lazy(() =>
  import('./PortalAccessForm.tsx').then((module) => ({ default: module.PortalAccessForm })),
);

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p className={styles.loading}>Loading…</p>}>{children}</Suspense>;
}

export function LazyContactForm() {
  return (
    <Loading>
      <ContactForm />
    </Loading>
  );
}

export function LazyTrialForm() {
  return (
    <Loading>
      <TrialForm />
    </Loading>
  );
}

export function LazyPortalAccessForm() {
  return (
    <Loading>
      <PortalAccessForm />
    </Loading>
  );
}

export function LazyQuoteForm() {
  return (
    <Loading>
      <QuoteForm />
    </Loading>
  );
}

export function LazyCheckoutForm() {
  return (
    <Loading>
      <CheckoutForm />
    </Loading>
  );
}

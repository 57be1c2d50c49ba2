import { data, Link } from 'react-router';
import type { Route } from './+types/checkout-success.ts';
import { LicenceStatus } from '../components/checkout/LicenceStatus.tsx';
import { LostKeyForm } from '../components/licences/LostKeyForm.tsx';
import { licenceStatusFor } from '../components/checkout/licence-status-data.ts';
import { checkoutSuccessContent, purchaseContent } from '../content/checkout-success.ts';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';
import { siteConfig, supportMailto } from '#shared/site-config.ts';
import styles from './checkout-success.module.css';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

export const meta = metaFor(pages.checkoutSuccess);

/** Shows the licence of the buyer's own checkout session. */
export const headers = perVisitHeaders;

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

/**
 * A client over its lookup limit gets the page without a status, as 429 (decision 125): the
 * static text still tells every buyer where the key goes.
 */
export async function loader(args: Route.LoaderArgs) {
  const { status, retryAfterSeconds } = await licenceStatusFor(args);
  if (retryAfterSeconds === undefined) return status;
  return data(status, { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } });
}

export default function CheckoutSuccessPage({ loaderData }: Route.ComponentProps) {
  const content = checkoutSuccessContent;
  const purchase = purchaseContent(loaderData);
  return (
    <div className={`container ${styles.page}`}>
      <div className={styles.mark} aria-hidden="true">
        <svg
          width="32"
          height="32"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      </div>
      <h1>{pages.checkoutSuccess.title}</h1>
      <p className={styles.congratulation}>{content.congratulation}</p>
      <p className="lead">{purchase.summary}</p>
      <LicenceStatus status={loaderData} />
      <ol className={styles.steps}>
        {purchase.steps.map((step) => (
          <li key={step.title}>
            <h2 className={styles.stepTitle}>{step.title}</h2>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
      <p>
        <a href={supportMailto} className="button button-primary">
          {content.supportLinkLabel}
        </a>
      </p>
      <LostKeyForm />
      <h2 className={styles.nextHeading}>{content.next.heading}</h2>
      <ul className={styles.next}>
        <li>
          <Link to={pages.download.path}>{content.next.download}</Link>
        </li>
        <li>
          <a href={siteConfig.links.docs}>{content.next.docs}</a>
        </li>
      </ul>
    </div>
  );
}

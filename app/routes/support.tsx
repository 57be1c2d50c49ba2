import type { Route } from './+types/support.ts';
import { ModalLink } from '../components/dialogs/ModalLink.tsx';
import { LostKeyForm } from '../components/licences/LostKeyForm.tsx';
import { PageHero } from '../components/content/PageHero.tsx';
import { Alert } from '../components/ui/Alert.tsx';
import { CodeBlock } from '../components/ui/CodeBlock.tsx';
import { supportContent } from '../content/support.ts';
import { pages } from '../pages.ts';
import { loadLatestVersion } from '../releases/latest-version.ts';
import { metaFor } from '../root-data.ts';
import { siteConfig, supportMailto } from '#shared/site-config.ts';
import styles from './support.module.css';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

export const meta = metaFor(pages.support);

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

export async function loader({ context }: Route.LoaderArgs) {
  return { latestVersion: await loadLatestVersion(context) };
}

export default function SupportPage({ loaderData }: Route.ComponentProps) {
  const { channels, freeForAll, sla, request, security, other } = supportContent;
  return (
    <>
      <PageHero
        eyebrow={supportContent.eyebrow}
        title={pages.support.title}
        summary={supportContent.summary}
      />

      <section className="section" aria-labelledby="channels-heading">
        <div className="container">
          <h2 id="channels-heading">{channels.heading}</h2>
          <ul className={styles.channels}>
            <li className={styles.channel}>
              <h3>{channels.chat.title}</h3>
              <p>{channels.chat.text}</p>
              <a href={siteConfig.links.communityChat} className="button button-primary">
                {channels.chat.linkLabel}
              </a>
            </li>
            <li className={styles.channel}>
              <h3>{channels.email.title}</h3>
              <p>{channels.email.text}</p>
              <a href={supportMailto} className="button button-primary">
                {channels.email.linkLabel}
              </a>
            </li>
            <li className={styles.channel}>
              <h3>{channels.docs.title}</h3>
              <p>{channels.docs.text}</p>
              <a href={siteConfig.links.docs} className="button button-secondary">
                {channels.docs.linkLabel}
              </a>
            </li>
          </ul>
          <div className={styles.facts}>
            <div>
              <h2 className={styles.factHeading}>{freeForAll.heading}</h2>
              <p>{freeForAll.text}</p>
            </div>
            <div>
              <h2 className={styles.factHeading}>{sla.heading}</h2>
              <p>{sla.text}</p>
            </div>
          </div>
        </div>
      </section>

      <section className={`section ${styles.muted}`} aria-labelledby="request-heading">
        <div className={`container ${styles.requestGrid}`}>
          <div>
            <h2 id="request-heading">{request.heading}</h2>
            <p>{request.intro}</p>
            <ol className={styles.checklist}>
              {request.items.map((item) => (
                <li key={item.title}>
                  <strong>{item.title}</strong> — {item.text}
                </li>
              ))}
            </ol>
            <Alert tone="warning">{request.warning}</Alert>
          </div>
          <div className={styles.template}>
            <CodeBlock
              code={request.template(loaderData.latestVersion)}
              label={request.templateLabel}
              language="text"
            />
          </div>
        </div>
      </section>

      <section id="security" className="section" aria-labelledby="security-heading">
        <div className="container">
          <h2 id="security-heading">{security.heading}</h2>
          <p>{security.intro}</p>
          <ul>
            {security.promises.map((promise) => (
              <li key={promise}>{promise}</li>
            ))}
          </ul>
          <p>
            <a href={`mailto:${siteConfig.securityEmail}`} className="button button-secondary">
              {security.linkLabel}
            </a>
          </p>
        </div>
      </section>

      <section className={`section ${styles.muted}`} aria-labelledby="other-heading">
        <div className="container">
          <h2 id="other-heading">{other.heading}</h2>
          <ul className={styles.other}>
            <li>
              {other.billing} <ModalLink modal="portal-access">{other.billingLink}</ModalLink>
            </li>
            <li>
              {other.sales} <ModalLink modal="contact">{other.salesLink}</ModalLink>
            </li>
          </ul>
          <LostKeyForm headingLevel={3} />
        </div>
      </section>
    </>
  );
}

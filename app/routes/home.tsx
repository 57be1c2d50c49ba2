import { Link } from 'react-router';
import type { Route } from './+types/home.ts';
import { siteContext } from '../context.ts';
import contentHero from '../components/content/ContentHero.module.css';
import { CtaBand } from '../components/content/CtaBand.tsx';
import { FeatureIcon } from '../components/content/FeatureIcon.tsx';
import { ModalLink } from '../components/dialogs/ModalLink.tsx';
import { TerminalDemo } from '../components/terminal/TerminalDemo.tsx';
import { HowItWorksDiagram } from '../content/diagrams/HowItWorksDiagram.tsx';
import { homeContent } from '../content/home.ts';
import { homeStructuredData, type StructuredDataOffer } from '../content/structured-data.ts';
import { structuredDataPrice } from '#shared/pricing/index.ts';
import { terminalSession } from '../content/terminal-session.ts';
import { pages } from '../pages.ts';
import { metaFor, rootDataFromMatches } from '../root-data.ts';
import styles from './home.module.css';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

/** The newest stable release, from the release catalog (read per request, so publishing shows at once). */
export async function loader({ context }: Route.LoaderArgs) {
  const release = await context.get(siteContext).services.releases.findLatestRelease();
  return {
    latestRelease: release ? { version: release.version, releaseDate: release.releaseDate } : null,
    // Priced on the server, so the pricing engine stays out of the home page's browser bundle.
    offer: structuredDataPrice(),
  };
}

function offerOf(loaderData: unknown): StructuredDataOffer | null {
  if (typeof loaderData !== 'object' || loaderData === null) return null;
  const offer: unknown = Reflect.get(loaderData, 'offer');
  if (typeof offer !== 'object' || offer === null) return null;
  const price: unknown = Reflect.get(offer, 'price');
  const currency: unknown = Reflect.get(offer, 'currency');
  return typeof price === 'number' && typeof currency === 'string' ? { price, currency } : null;
}

type LatestRelease = Awaited<ReturnType<typeof loader>>['latestRelease'];

function latestReleaseOf(loaderData: unknown): LatestRelease {
  if (typeof loaderData !== 'object' || loaderData === null) return null;
  const release: unknown = Reflect.get(loaderData, 'latestRelease');
  if (typeof release !== 'object' || release === null) return null;
  const version: unknown = Reflect.get(release, 'version');
  const releaseDate: unknown = Reflect.get(release, 'releaseDate');
  return typeof version === 'string' && typeof releaseDate === 'string'
    ? { version, releaseDate }
    : null;
}

export const meta = metaFor(pages.home, ({ matches, loaderData }) => {
  const offer = offerOf(loaderData);
  if (!offer) return [];
  const data = homeStructuredData(
    rootDataFromMatches(matches)?.publicBaseUrl ?? '',
    latestReleaseOf(loaderData),
    offer,
  );
  return [{ 'script:ld+json': data.application }, { 'script:ld+json': data.organization }];
});

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { latestRelease } = loaderData;
  const { hero, features, howItWorks, gettingStarted, closing } = homeContent;
  return (
    <>
      <section className={styles.hero} aria-labelledby="home-title">
        <div className={`container ${styles.heroGrid}`}>
          <div className={styles.heroText}>
            <p className="eyebrow">{hero.eyebrow}</p>
            <h1 id="home-title" className={styles.title}>
              {hero.title}
            </h1>
            <p className={`lead ${styles.lead}`}>{hero.text}</p>
            <div className={contentHero.actions}>
              <ModalLink modal="trial" className="button button-primary">
                Start for Free
              </ModalLink>
              <Link to={pages.download.path} className="button button-secondary">
                Download
              </Link>
            </div>
            <p className={styles.note}>{hero.note}</p>
            {latestRelease && (
              <p className={styles.release}>
                Latest version {latestRelease.version}, released{' '}
                <time dateTime={latestRelease.releaseDate}>{latestRelease.releaseDate}</time>
              </p>
            )}
          </div>
          <TerminalDemo session={terminalSession} />
        </div>
      </section>

      <section className="section" aria-labelledby="features-heading">
        <div className="container">
          <h2 id="features-heading">{features.heading}</h2>
          <p className="lead">{features.intro}</p>
          <ul className={contentHero.cardGrid}>
            {features.cards.map((card) => (
              <li key={card.page.path} className={styles.card}>
                <span className={styles.icon}>
                  <FeatureIcon name={card.icon} />
                </span>
                <h3 className={styles.cardTitle}>
                  <Link to={card.page.path} className={styles.cardLink}>
                    {card.page.title}
                  </Link>
                </h3>
                <p>{card.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={`section ${contentHero.mutedSection}`} aria-labelledby="how-heading">
        <div className={`container ${styles.howGrid}`}>
          <div>
            <h2 id="how-heading">{howItWorks.heading}</h2>
            <p className="lead">{howItWorks.intro}</p>
            <dl className={styles.points}>
              {howItWorks.points.map((point) => (
                <div key={point.title}>
                  <dt>{point.title}</dt>
                  <dd>{point.text}</dd>
                </div>
              ))}
            </dl>
          </div>
          <div className={styles.diagram}>
            <HowItWorksDiagram />
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="start-heading">
        <div className="container">
          <h2 id="start-heading">{gettingStarted.heading}</h2>
          <ol className={styles.steps}>
            {gettingStarted.steps.map((step) => (
              <li key={step.title} className={styles.step}>
                <h3 className={styles.stepTitle}>{step.title}</h3>
                <p>{step.text}</p>
                {step.link.external ? (
                  <a href={step.link.href} className={styles.stepLink}>
                    {step.link.label}
                  </a>
                ) : (
                  <Link to={step.link.href} className={styles.stepLink}>
                    {step.link.label}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </div>
      </section>

      <CtaBand heading={closing.heading} text={closing.text}>
        <ModalLink modal="trial" className="button button-primary">
          Start for Free
        </ModalLink>
        <ModalLink modal="contact" className="button button-secondary">
          Talk to us
        </ModalLink>
      </CtaBand>
    </>
  );
}

import { Link } from 'react-router';
import { siteConfig, supportMailto } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import { CookieSettingsButton } from './CookieSettingsButton.tsx';
import { Logo } from './Logo.tsx';
import { ScrollUpButton } from './ScrollUpButton.tsx';
import { externalNav, featureNav, serviceNav } from './navigation.ts';
import styles from './SiteFooter.module.css';

/** The site footer; `year` comes from the root loader so it is the server's year at request time. */
export function SiteFooter({ year }: { year: number }) {
  const { company, links } = siteConfig;
  return (
    <footer className={styles.footer}>
      <div className={`container ${styles.grid}`}>
        <div className={styles.brandColumn}>
          <Link to="/" className={styles.brand} aria-label={`${siteConfig.productName} home`}>
            <Logo tone="dark" />
          </Link>
          <p className={styles.tagline}>{siteConfig.tagline}.</p>
          <address className={styles.address}>
            {company.name}
            <br />
            {company.street}
            <br />
            {company.postalCode} {company.city}
            <br />
            {company.country}
          </address>
        </div>

        <nav aria-labelledby="footer-product" className={styles.column}>
          <h2 id="footer-product" className={styles.heading}>
            Product
          </h2>
          <ul className={styles.list}>
            <li>
              <Link to={pages.pricing.path}>Pricing</Link>
            </li>
            <li>
              <Link to={pages.download.path}>Download</Link>
            </li>
            <li>
              <ModalLink modal="trial">Start for Free</ModalLink>
            </li>
            <li>
              <a href={externalNav.docs.href}>Documentation</a>
            </li>
            <li>
              <a href={externalNav.blog.href}>Blog</a>
            </li>
            <li>
              <ModalLink modal="portal-access">Manage your subscription</ModalLink>
            </li>
          </ul>
        </nav>

        <nav aria-labelledby="footer-features" className={styles.column}>
          <h2 id="footer-features" className={styles.heading}>
            Features
          </h2>
          <ul className={styles.list}>
            {featureNav.map((page) => (
              <li key={page.path}>
                <Link to={page.path}>{page.title}</Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className={styles.column}>
          <nav aria-labelledby="footer-services">
            <h2 id="footer-services" className={styles.heading}>
              Services
            </h2>
            <ul className={styles.list}>
              {serviceNav.map((page) => (
                <li key={page.path}>
                  <Link to={page.path}>{page.title}</Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-labelledby="footer-contact">
            <h2 id="footer-contact" className={`${styles.heading} ${styles.subHeading}`}>
              Contact
            </h2>
            <ul className={styles.list}>
              <li>
                <ModalLink modal="contact">Send us a message</ModalLink>
              </li>
              <li>
                <a href={supportMailto}>{siteConfig.supportEmail}</a>
              </li>
              <li>
                <a href={links.communityChat}>Community chat</a>
              </li>
            </ul>
          </nav>
        </div>
      </div>

      <div className={`container ${styles.bottom}`}>
        <p className={styles.copyright}>
          © {year} {company.name}. All rights reserved.
        </p>
        <nav aria-label="Legal">
          <ul className={styles.inline}>
            <li>
              <Link to={pages.support.path}>Support</Link>
            </li>
            <li>
              <Link to={pages.security.path}>Security</Link>
            </li>
            <li>
              <Link to={pages.eula.path}>EULA</Link>
            </li>
            <li>
              <Link to={pages.imprint.path}>Imprint</Link>
            </li>
            <li>
              <Link to={pages.privacy.path}>Privacy</Link>
            </li>
            <li>
              <CookieSettingsButton />
            </li>
          </ul>
        </nav>
        <ul className={styles.inline} aria-label="Orgsmith elsewhere">
          {siteConfig.social.map((profile) => (
            <li key={profile.href}>
              <a href={profile.href}>{profile.label}</a>
            </li>
          ))}
        </ul>
      </div>
      <ScrollUpButton />
    </footer>
  );
}

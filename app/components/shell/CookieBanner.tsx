import { Link } from 'react-router';
import { chooseConsent } from '#app/analytics/consent.ts';
import { pages } from '#app/pages.ts';
import styles from './CookieBanner.module.css';

/** The banner itself, with its two choices; LazyCookieBanner decides whether it shows. */
export function CookieBanner() {
  return (
    <section className={styles.banner} aria-labelledby="cookie-banner-title">
      <div className={styles.inner}>
        <div className={styles.text}>
          <h2 id="cookie-banner-title" className={styles.title}>
            Cookies on this site
          </h2>
          <p className={styles.body}>
            We use essential cookies to run the site. With your consent we also use analytics
            cookies to learn which pages help. See our{' '}
            <Link to={pages.privacy.path}>privacy policy</Link>.
          </p>
        </div>
        <div className={styles.actions}>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => chooseConsent('essential')}
          >
            Only essential
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => chooseConsent('all')}
          >
            Accept all
          </button>
        </div>
      </div>
    </section>
  );
}

import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { chooseConsent, closeCookieSettings, hasConsent } from '#app/analytics/consent.ts';
import { pages } from '#app/pages.ts';
import styles from './CookieBanner.module.css';

/**
 * The banner itself, with its two choices; LazyCookieBanner decides whether it shows. Reopened
 * from "Cookie settings" it says what was chosen, takes focus (its heading) and gives it back on
 * a choice or Esc; on a first visit it takes nothing (decision 138).
 */
export function CookieBanner({ settings }: { settings: boolean }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (settings) headingRef.current?.focus();
  }, [settings]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!settings || event.key !== 'Escape') return;
    event.preventDefault();
    closeCookieSettings();
  };

  return (
    <section className={styles.banner} aria-labelledby="cookie-banner-title" onKeyDown={onKeyDown}>
      <div className={styles.inner}>
        <div className={styles.text}>
          <h2
            id="cookie-banner-title"
            className={styles.title}
            ref={headingRef}
            tabIndex={settings ? -1 : undefined}
          >
            Cookies on this site
          </h2>
          <p className={styles.body}>
            We use essential cookies to run the site. With your consent we also use analytics
            cookies to learn which pages help. See our{' '}
            <Link to={pages.privacy.path}>privacy policy</Link>.
          </p>
          {settings ? (
            <p className={styles.body}>
              {hasConsent()
                ? 'You accepted analytics cookies. Choose “Only essential” to withdraw your consent: analytics stop at once and their cookies are deleted.'
                : 'You allow only essential cookies.'}
            </p>
          ) : null}
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

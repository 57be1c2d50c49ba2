import { useSyncExternalStore } from 'react';
import { bannerView, openCookieSettings, subscribeConsent } from '#app/analytics/consent.ts';
import styles from './SiteFooter.module.css';

const closedOnServer = () => false;
const settingsOpen = () => bannerView() === 'settings';

/**
 * "Cookie settings" in the footer: reopens the cookie banner so consent can be given or withdrawn
 * (decision 138). The same markup for every visitor, so the page stays cacheable.
 */
export function CookieSettingsButton() {
  const open = useSyncExternalStore(subscribeConsent, settingsOpen, closedOnServer);
  return (
    <button
      type="button"
      className={styles.linkButton}
      aria-expanded={open}
      onClick={(event) => openCookieSettings(event.currentTarget)}
    >
      Cookie settings
    </button>
  );
}

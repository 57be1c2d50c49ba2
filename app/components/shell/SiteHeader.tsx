import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigation } from 'react-router';
import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import { Logo } from './Logo.tsx';
import { NavDropdown, type NavMenuItem } from './NavDropdown.tsx';
import { externalNav, featureNav, serviceNav } from './navigation.ts';
import styles from './SiteHeader.module.css';

type MenuId = 'features' | 'services' | 'contact';

const featureItems: NavMenuItem[] = featureNav.map((page) => ({ kind: 'page', ...page }));
const serviceItems: NavMenuItem[] = serviceNav.map((page) => ({ kind: 'page', ...page }));
const contactItems: NavMenuItem[] = [
  {
    kind: 'modal',
    modal: 'contact',
    title: 'Get in touch',
    summary: 'Questions about licences, pricing or services',
  },
  {
    kind: 'page',
    path: pages.support.path,
    title: 'Request support',
    summary: 'E-mail or community chat, free for every licence',
  },
];

/** Matches the CSS breakpoint below which the navigation collapses into the mobile menu. */
const desktopQuery = '(min-width: 900px)';
const isDesktop = () => window.matchMedia(desktopQuery).matches;

export function SiteHeader() {
  const [openMenu, setOpenMenu] = useState<MenuId | null>(null);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [seenLocation, setSeenLocation] = useState<string | null>(null);
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const navigation = useNavigation();

  // Menus close as soon as a navigation starts, and on any completed location change.
  const locationKey = location.key;
  if (seenLocation !== locationKey) {
    setSeenLocation(locationKey);
    if (seenLocation !== null && (openMenu !== null || mobileOpen)) {
      setOpenMenu(null);
      setMobileOpen(false);
    }
  }
  if (navigation.state !== 'idle' && (openMenu !== null || mobileOpen)) {
    setOpenMenu(null);
    setMobileOpen(false);
  }

  const anythingOpen = openMenu !== null || mobileOpen;
  useEffect(() => {
    if (!anythingOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target;
      if (!(target instanceof Node)) return;
      const openItem = headerRef.current?.querySelector('[data-open]');
      if (openItem && !openItem.contains(target)) setOpenMenu(null);
      if (!headerRef.current?.contains(target)) setMobileOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      // A dropdown that handled Esc itself closes alone, leaving the mobile panel open.
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOpenMenu(null);
      if (mobileOpen) {
        setMobileOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [anythingOpen, mobileOpen]);

  /** A menu link was chosen: close everything and leave focus on a control that stays visible. */
  const onNavigate = (trigger: HTMLButtonElement | null) => {
    const focusTarget = mobileOpen && !isDesktop() ? toggleRef.current : trigger;
    focusTarget?.focus({ preventScroll: true });
    setOpenMenu(null);
    setMobileOpen(false);
  };
  const closeMobileOnClick = () => {
    if (!mobileOpen) return;
    toggleRef.current?.focus({ preventScroll: true });
    setMobileOpen(false);
  };

  const menu = (id: MenuId) => ({
    open: openMenu === id,
    onOpenChange: (open: boolean) => setOpenMenu(open ? id : null),
    onNavigate,
    hoverEnabled: isDesktop,
  });

  return (
    <header ref={headerRef} className={styles.header} data-mobile-open={mobileOpen || undefined}>
      <div className={`container ${styles.inner}`}>
        <Link to="/" className={styles.brand} aria-label={`${siteConfig.productName} home`}>
          <Logo wordmarkClassName={styles.wordmark} />
        </Link>
        <ModalLink modal="trial" className={`button button-primary ${styles.barCta}`}>
          Start for Free
        </ModalLink>
        <button
          ref={toggleRef}
          type="button"
          className={styles.menuToggle}
          aria-expanded={mobileOpen}
          aria-controls="site-navigation"
          onClick={() => {
            setOpenMenu(null);
            setMobileOpen(!mobileOpen);
          }}
        >
          <MenuIcon open={mobileOpen} />
          <span className="visually-hidden">Menu</span>
        </button>
        <nav id="site-navigation" aria-label="Main" className={styles.nav}>
          <ul className={styles.navList}>
            <NavDropdown label="Features" items={featureItems} wide {...menu('features')} />
            <li className={styles.menuItem}>
              <NavLink
                to={pages.pricing.path}
                className={styles.navLink}
                onClick={closeMobileOnClick}
              >
                Pricing
              </NavLink>
            </li>
            <NavDropdown label="Services" items={serviceItems} {...menu('services')} />
            <li className={styles.menuItem}>
              <a href={externalNav.docs.href} className={styles.navLink}>
                {externalNav.docs.label}
              </a>
            </li>
            <li className={styles.menuItem}>
              <a href={externalNav.blog.href} className={styles.navLink}>
                {externalNav.blog.label}
              </a>
            </li>
            <NavDropdown label="Contact" items={contactItems} {...menu('contact')} />
            <li className={`${styles.menuItem} ${styles.actions}`}>
              <NavLink
                to={pages.download.path}
                className={`button button-secondary ${styles.actionButton}`}
                onClick={closeMobileOnClick}
              >
                Download
              </NavLink>
              <ModalLink
                modal="trial"
                className={`button button-primary ${styles.actionButton}`}
                onClick={closeMobileOnClick}
              >
                Start for Free
              </ModalLink>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
      {open ? (
        <path
          d="M6 6l12 12M18 6L6 18"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      ) : (
        <path
          d="M4 7h16M4 12h16M4 17h16"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      )}
    </svg>
  );
}

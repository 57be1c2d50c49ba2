import {
  useEffect,
  useId,
  useRef,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { NavLink } from 'react-router';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import type { ModalName } from '../dialogs/modal-url.ts';
import styles from './SiteHeader.module.css';

export type NavMenuItem =
  | { kind: 'page'; path: string; title: string; summary: string }
  | { kind: 'modal'; modal: ModalName; title: string; summary: string };

interface NavDropdownProps {
  label: string;
  items: readonly NavMenuItem[];
  open: boolean;
  /** The header keeps one menu open at a time, so it owns the open state. */
  onOpenChange: (open: boolean) => void;
  /** An item was chosen: the header closes everything and keeps focus on a visible control. */
  onNavigate: (trigger: HTMLButtonElement | null) => void;
  /** Hover opening is for desktop pointers only; the mobile menu works by tap. */
  hoverEnabled: () => boolean;
  /** Two columns of links (the six features). */
  wide?: boolean;
}

const hoverCloseDelayMs = 150;

/**
 * A disclosure menu of navigation links (WAI-ARIA disclosure navigation pattern): the button
 * toggles on click, tap, Enter and Space; ArrowDown/ArrowUp open it and move through the links,
 * Home/End jump, Esc closes and returns focus to the button; a mouse may also open it by hovering.
 */
export function NavDropdown({
  label,
  items,
  open,
  onOpenChange,
  onNavigate,
  hoverEnabled,
  wide = false,
}: NavDropdownProps) {
  const panelId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<'first' | 'last' | null>(null);
  const openedByHover = useRef(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!open) {
      openedByHover.current = false;
      return;
    }
    const target = pendingFocus.current;
    pendingFocus.current = null;
    if (!target) return;
    const links = linksIn(panelRef.current);
    (target === 'first' ? links[0] : links[links.length - 1])?.focus();
  }, [open]);

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const openWithFocus = (target: 'first' | 'last') => {
    if (open) {
      const links = linksIn(panelRef.current);
      (target === 'first' ? links[0] : links[links.length - 1])?.focus();
    } else {
      pendingFocus.current = target;
      onOpenChange(true);
    }
  };

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      openWithFocus('first');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openWithFocus('last');
    }
  };

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const links = linksIn(panelRef.current);
    const index = links.findIndex((link) => link === document.activeElement);
    const last = links.length - 1;
    const next =
      event.key === 'ArrowDown'
        ? index >= last
          ? 0
          : index + 1
        : event.key === 'ArrowUp'
          ? index <= 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    links[next]?.focus();
  };

  const onItemKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (event.key !== 'Escape' || !open) return;
    event.preventDefault();
    event.stopPropagation();
    onOpenChange(false);
    triggerRef.current?.focus();
  };

  const onClick = () => {
    // A click after a hover-open pins the menu instead of closing it under the pointer.
    if (open && openedByHover.current) {
      openedByHover.current = false;
      return;
    }
    onOpenChange(!open);
  };

  const onPointerEnter = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse' || !hoverEnabled()) return;
    clearTimeout(closeTimer.current);
    if (!open) {
      openedByHover.current = true;
      onOpenChange(true);
    }
  };

  const onPointerLeave = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse' || !openedByHover.current) return;
    closeTimer.current = setTimeout(() => {
      if (openedByHover.current) onOpenChange(false);
    }, hoverCloseDelayMs);
  };

  const onBlur = (event: FocusEvent<HTMLLIElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next)) onOpenChange(false);
  };

  const chosen = () => onNavigate(triggerRef.current);

  return (
    <li
      className={styles.menuItem}
      data-open={open || undefined}
      onKeyDown={onItemKeyDown}
      onBlur={onBlur}
      onPointerEnter={onPointerEnter}
      onPointerLeave={onPointerLeave}
    >
      <button
        ref={triggerRef}
        type="button"
        className={styles.trigger}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onClick}
        onKeyDown={onTriggerKeyDown}
      >
        {label}
        <Chevron />
      </button>
      <div
        ref={panelRef}
        id={panelId}
        className={`${styles.panel} ${wide ? styles.panelWide : ''}`}
        hidden={!open}
        data-nav-panel=""
        onKeyDown={onPanelKeyDown}
      >
        <ul className={styles.panelList}>
          {items.map((item) => (
            <li key={item.title}>
              <MenuLink item={item} onChoose={chosen}>
                <span className={styles.panelTitle}>{item.title}</span>
                <span className={styles.panelSummary}>{item.summary}</span>
              </MenuLink>
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}

function MenuLink({
  item,
  onChoose,
  children,
}: {
  item: NavMenuItem;
  onChoose: () => void;
  children: ReactNode;
}) {
  if (item.kind === 'modal') {
    return (
      <ModalLink modal={item.modal} className={styles.panelLink} onClick={onChoose}>
        {children}
      </ModalLink>
    );
  }
  return (
    <NavLink to={item.path} className={styles.panelLink} onClick={onChoose}>
      {children}
    </NavLink>
  );
}

function linksIn(panel: HTMLElement | null): HTMLAnchorElement[] {
  return panel ? Array.from(panel.querySelectorAll('a')) : [];
}

export function Chevron() {
  return (
    <svg className={styles.chevron} width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
      <path
        d="M2.5 4.5L6 8l3.5-3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

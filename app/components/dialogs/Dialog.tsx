import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { DialogCloseContext } from './dialog-close.ts';
import styles from './Dialog.module.css';

interface DialogProps {
  title: string;
  /** A short line above the heading naming what the dialog is for. */
  eyebrow?: string;
  onClose: () => void;
  children: ReactNode;
}

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(focusableSelector)).filter((element) =>
    element.checkVisibility(),
  );
}

/** Gives focus back to the dialog's opener, or to the main content when the opener is gone. */
function restoreFocus(opener: HTMLElement | null): void {
  const target =
    opener?.isConnected && opener.checkVisibility() ? opener : document.getElementById('main');
  target?.focus({ preventScroll: true });
}

/**
 * A modal on the native <dialog>: showModal() puts it in the top layer and makes the page inert;
 * Tab wraps inside it; Esc and the close button close it; focus returns to the opener. The first
 * element marked `data-autofocus` gets focus on opening, otherwise the close button.
 */
export function Dialog({ title, eyebrow, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    // Esc (and the browser's close watcher) closes the native dialog; mirror that in the URL.
    const handleClose = () => onCloseRef.current();
    dialog.addEventListener('close', handleClose);
    return () => {
      dialog.removeEventListener('close', handleClose);
      if (dialog.open) dialog.close();
      restoreFocus(opener);
    };
  }, []);

  const trapTab = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = focusableIn(ref.current);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog ref={ref} className={styles.dialog} aria-labelledby={titleId} onKeyDown={trapTab}>
      <div className={styles.header}>
        <div>
          {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
        </div>
        <button type="button" className={styles.close} onClick={onClose} aria-label="Close dialog">
          <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20">
            <path
              d="M5 5l10 10M15 5L5 15"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </div>
      <div className={styles.body}>
        <DialogCloseContext value={onClose}>{children}</DialogCloseContext>
      </div>
    </dialog>
  );
}

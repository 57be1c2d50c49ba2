import {
  LazyCheckoutForm,
  LazyContactForm,
  LazyPortalAccessForm,
  LazyQuoteForm,
  LazyTrialForm,
} from '../forms/lazy-forms.tsx';
import { Dialog } from './Dialog.tsx';
import type { ModalName } from './modal-url.ts';

/** Each dialog's heading, and the small line above it naming what the dialog is for. */
const frames: Record<ModalName, { eyebrow: string; title: string }> = {
  contact: { eyebrow: 'Contact', title: 'Get in touch' },
  'portal-access': { eyebrow: 'Manage your subscription', title: 'Enter your email address' },
  trial: { eyebrow: 'Free trial', title: 'Start your free trial' },
  quote: { eyebrow: 'Buying for a company', title: 'Get a quote or pay by invoice' },
  checkout: { eyebrow: 'Checkout', title: 'Your company' },
};

/** One of the URL dialogs with its frame and body; loaded on demand by ModalHost. */
export default function ModalDialog({ modal, onClose }: { modal: ModalName; onClose: () => void }) {
  const frame = frames[modal];
  return (
    <Dialog eyebrow={frame.eyebrow} title={frame.title} onClose={onClose}>
      <ModalBody modal={modal} />
    </Dialog>
  );
}

/** The dialog bodies: the forms of the contact, portal-access, trial, quote and checkout dialogs. */
function ModalBody({ modal }: { modal: ModalName }) {
  switch (modal) {
    case 'contact':
      return <LazyContactForm />;
    case 'portal-access':
      return <LazyPortalAccessForm />;
    case 'trial':
      return <LazyTrialForm />;
    case 'quote':
      return <LazyQuoteForm />;
    case 'checkout':
      return <LazyCheckoutForm />;
  }
}

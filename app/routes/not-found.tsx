import { data } from 'react-router';
import { NotFoundContent } from '../components/shell/NotFoundContent.tsx';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

export function loader() {
  return data(null, { status: 404 });
}

export const meta = () => [
  { title: 'Page Not Found - Orgsmith' },
  { name: 'description', content: 'The page you were looking for does not exist.' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export default function NotFoundPage() {
  return <NotFoundContent />;
}

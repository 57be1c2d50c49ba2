import { data } from 'react-router';
import { NotFoundContent } from '../components/shell/NotFoundContent.tsx';

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

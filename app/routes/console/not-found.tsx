import { data, Link } from 'react-router';
import { consoleMeta } from './console-meta.ts';

export function loader() {
  return data(null, { status: 404 });
}

export const meta = () => consoleMeta('Not found');

export default function ConsoleNotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        The console has no page here. <Link to="/console">Back to the console</Link>
      </p>
    </>
  );
}

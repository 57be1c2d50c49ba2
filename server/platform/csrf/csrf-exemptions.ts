import { TrieRouter } from 'hono/router/trie-router';
import type { ApiOperationDoc } from '../api-doc/api-doc.ts';
import { checksCsrf } from '../route-auth/route-auth.ts';

/**
 * The requests the CSRF check lets through, from the routes' own declarations (decision 225): a
 * request that Hono would route to a definition whose `auth` carries its own credential (a
 * licence key, an access token, a signature) or none. Every other unsafe request is checked:
 * `csrf` and console routes, unknown paths, the site's own pages and the TEST-MODE payment pages.
 */
export function csrfExemptionsOf(
  docs: readonly ApiOperationDoc[],
): (method: string, path: string) => boolean {
  const router = new TrieRouter<ApiOperationDoc>();
  for (const doc of docs) router.add(doc.method.toUpperCase(), doc.path, doc);
  return (method, path) => {
    const [matches] = router.match(method.toUpperCase(), path);
    // Where two definitions could take the path, one that wants the check keeps it.
    return matches.length > 0 && matches.every(([doc]) => !checksCsrf(doc.auth));
  };
}

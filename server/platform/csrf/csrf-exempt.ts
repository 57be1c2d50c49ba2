/** Paths that machines call with their own authentication, so no CSRF token applies. */
export function isCsrfExempt(path: string): boolean {
  return (
    path.startsWith('/account/v1/webhooks/') ||
    path === '/account/v1/licenses/validate' ||
    // Authenticated by the licence key or token in the body (decision 074).
    path === '/account/v1/access-tokens' ||
    path.startsWith('/account/v1/access-tokens/')
  );
}

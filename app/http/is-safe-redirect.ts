/** Only our own pages or a provider's https pages are followed (checkout, billing portal). */
export function isSafeRedirect(url: string): boolean {
  try {
    const target = new URL(url, window.location.href);
    return target.protocol === 'https:' || target.origin === window.location.origin;
  } catch {
    return false;
  }
}

/** A customer's story page in the console, by address. */
export function customerPath(address: string): string {
  return `/console/customer?${new URLSearchParams({ address }).toString()}`;
}

/**
 * A recipient as the log may show it (decision 159): the first character of the mailbox and the
 * domain, `j***@example.com`, enough to tell support which mail it was, never the address.
 */
export function maskEmailAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address.charAt(0)}***${address.slice(at)}`;
}

const addressInText = /[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g;

/** Free text for the log (a relay's rejection, a subject) with every address in it masked. */
export function maskAddressesIn(text: string): string {
  return text.replace(addressInText, maskEmailAddress);
}

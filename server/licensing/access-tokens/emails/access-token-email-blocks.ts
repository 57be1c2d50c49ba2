import type { EmailBlock } from '#server/platform/email/render-email.ts';

/**
 * The licence e-mails' paragraph on CI: create an access token instead of putting the licence
 * key into pipelines. One source for every e-mail that carries a licence key.
 */
export function accessTokenEmailBlocks(accountBaseUrl: string): EmailBlock[] {
  return [
    { kind: 'heading', text: 'Using it in CI?' },
    {
      kind: 'paragraph',
      text: 'Give pipelines an access token instead of this key: you can revoke a token at any time without changing the key, and the key stays out of build logs. Create one (it is shown once) with:',
    },
    {
      kind: 'code',
      text: `curl -X POST ${accountBaseUrl}/account/v1/access-tokens -H "Content-Type: application/json" -d '{"licenseKey":"<your licence key>","name":"CI"}'`,
    },
  ];
}

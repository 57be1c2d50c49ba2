import { siteConfig } from '#shared/site-config.ts';
import type { EmailBlock } from './render-email.ts';

/**
 * Text blocks that several e-mails show word for word (decision 117): one source, so the
 * e-mails cannot drift apart.
 */

/** Under a licence key: the key is shown this once. */
export function keySafetyNote(): EmailBlock {
  return {
    kind: 'note',
    text: 'Keep this e-mail safe: we store only a fingerprint of the key and cannot show it to you again.',
  };
}

/**
 * The "Getting started" heading and its steps: download, documentation, community, then any
 * `extraSteps` of the e-mail (the trial adds a pointer to the plans).
 */
export function gettingStartedBlocks(
  publicBaseUrl: string,
  extraSteps: Array<{ label: string; url: string }> = [],
): EmailBlock[] {
  return [
    { kind: 'heading', text: 'Getting started' },
    {
      kind: 'steps',
      items: [
        { label: `Download the ${siteConfig.productName} CLI`, url: `${publicBaseUrl}/download` },
        { label: 'Read the documentation', url: siteConfig.links.docs },
        { label: 'Ask the community', url: siteConfig.links.communityChat },
        ...extraSteps,
      ],
    },
  ];
}

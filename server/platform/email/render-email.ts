import { color, font, radius } from '#shared/design-tokens.ts';
import { siteConfig } from '#shared/site-config.ts';

/** The pieces an e-mail is built from; each renders to both the plain-text and the HTML body. */
export type EmailBlock =
  | { kind: 'heading'; text: string }
  /** A paragraph, optionally ending in a link (`… label: url` in the plain-text body). */
  | { kind: 'paragraph'; text: string; link?: EmailLink }
  /** Something to copy exactly, e.g. a licence key. */
  | { kind: 'code'; text: string }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'steps'; items: Array<{ label: string; url: string }> }
  | { kind: 'facts'; items: Array<{ label: string; value: string }> }
  /** Text written by someone else (a contact message), shown with its line breaks. */
  | { kind: 'quote'; text: string }
  | { kind: 'note'; text: string; link?: EmailLink };

export interface EmailLink {
  label: string;
  url: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The site's design tokens (decision 172), by the names the e-mail uses them for. */
const colors = {
  navy: color.navy,
  text: color.text,
  muted: color.textMuted,
  accent: color.accent,
  tint: color.accentTint,
  border: color.border,
  page: color.surfaceMuted,
  card: color.surface,
  onDark: color.onDark,
  onDarkMuted: color.onDarkMuted,
};

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const { company } = siteConfig;
const addressLine = `${company.name} · ${company.street} · ${company.postalCode} ${company.city} · ${company.country}`;

function blockText(block: EmailBlock): string {
  switch (block.kind) {
    case 'heading':
      return `${block.text}\n${'-'.repeat(block.text.length)}`;
    case 'paragraph':
    case 'note':
      return block.link ? `${block.text} ${block.link.label}: ${block.link.url}` : block.text;
    case 'code':
      return `    ${block.text}`;
    case 'button':
      return `${block.label}:\n${block.url}`;
    case 'steps':
      return block.items.map((item, i) => `${i + 1}. ${item.label}: ${item.url}`).join('\n');
    case 'facts':
      return block.items.map((item) => `${item.label}: ${item.value}`).join('\n');
    case 'quote':
      return block.text
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
  }
}

function linkHtml(link: EmailLink | undefined): string {
  if (!link) return '';
  return ` <a href="${escapeHtml(link.url)}" style="color:${colors.accent}">${escapeHtml(link.label)}</a>.`;
}

function blockHtml(block: EmailBlock): string {
  const p = `margin:0 0 16px;font-size:16px;line-height:1.6;color:${colors.text}`;
  switch (block.kind) {
    case 'heading':
      return `<h2 style="margin:24px 0 12px;font-size:18px;line-height:1.3;color:${colors.navy}">${escapeHtml(block.text)}</h2>`;
    case 'paragraph':
      return `<p style="${p}">${escapeHtml(block.text)}${linkHtml(block.link)}</p>`;
    case 'note':
      return `<p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:${colors.muted}">${escapeHtml(block.text)}${linkHtml(block.link)}</p>`;
    case 'code':
      return `<p style="margin:0 0 16px;padding:14px 16px;background:${colors.tint};border:1px solid ${colors.border};border-radius:${radius.md};font-family:${font.mono};font-size:16px;font-weight:600;letter-spacing:0.02em;color:${colors.navy};word-break:break-all">${escapeHtml(block.text)}</p>`;
    case 'button':
      return `<p style="margin:8px 0 24px"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:12px 22px;background:${colors.accent};border-radius:${radius.md};color:${colors.onDark};font-weight:600;text-decoration:none">${escapeHtml(block.label)}</a></p>`;
    case 'steps':
      return `<ol style="margin:0 0 16px;padding-left:22px;font-size:16px;line-height:1.6;color:${colors.text}">${block.items
        .map(
          (item) =>
            `<li style="margin:0 0 6px"><a href="${escapeHtml(item.url)}" style="color:${colors.accent}">${escapeHtml(item.label)}</a></li>`,
        )
        .join('')}</ol>`;
    case 'facts':
      return `<table role="presentation" style="margin:0 0 16px;border-collapse:collapse;font-size:15px">${block.items
        .map(
          (item) =>
            `<tr><th align="left" style="padding:4px 16px 4px 0;color:${colors.muted};font-weight:600;vertical-align:top">${escapeHtml(item.label)}</th><td style="padding:4px 0;color:${colors.text}">${escapeHtml(item.value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'quote':
      return `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${colors.accent};background:${colors.page};white-space:pre-wrap;font-size:15px;line-height:1.6;color:${colors.text}">${escapeHtml(block.text)}</blockquote>`;
  }
}

/**
 * Renders a branded e-mail from blocks: the same content as plain text and as HTML, with the
 * brand header and the company footer of the site config.
 */
export function renderEmail(input: {
  subject: string;
  blocks: EmailBlock[];
  publicBaseUrl: string;
}): RenderedEmail {
  const { subject, blocks, publicBaseUrl } = input;
  const footerText = [
    `${siteConfig.productName} — ${siteConfig.tagline}`,
    `${publicBaseUrl} · Support: ${siteConfig.supportEmail}`,
    addressLine,
  ].join('\n');
  const text = `${blocks.map(blockText).join('\n\n')}\n\n-- \n${footerText}\n`;

  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:${colors.page};font-family:${font.sans}">
<table role="presentation" width="100%" style="border-collapse:collapse;background:${colors.page}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:600px;border-collapse:collapse;background:${colors.card};border:1px solid ${colors.border};border-radius:${radius.lg}">
<tr><td style="padding:20px 28px;background:${colors.navy};border-radius:${radius.lg} ${radius.lg} 0 0">
<a href="${escapeHtml(publicBaseUrl)}" style="color:${colors.onDark};font-size:20px;font-weight:700;text-decoration:none">${escapeHtml(siteConfig.productName)}</a>
<span style="color:${colors.onDarkMuted};font-size:14px">&nbsp;·&nbsp;${escapeHtml(siteConfig.tagline)}</span>
</td></tr>
<tr><td style="padding:28px">
${blocks.map(blockHtml).join('\n')}
</td></tr>
<tr><td style="padding:16px 28px 24px;border-top:1px solid ${colors.border};font-size:13px;line-height:1.5;color:${colors.muted}">
Questions? Write to <a href="mailto:${escapeHtml(siteConfig.supportEmail)}" style="color:${colors.accent}">${escapeHtml(siteConfig.supportEmail)}</a>.<br>
${escapeHtml(addressLine)}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}

/** One formatter for every e-mail: making one costs far more than formatting with it. */
const emailDateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A date as e-mails show it: `15 March 2026`, in UTC like every stored expiry. */
export function formatEmailDate(date: Date): string {
  return emailDateFormat.format(date);
}

const emailTimeFormat = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A moment as e-mails show it: `15 March 2026, 10:00 UTC`. */
export function formatEmailDateTime(date: Date): string {
  return `${emailDateFormat.format(date)}, ${emailTimeFormat.format(date)} UTC`;
}

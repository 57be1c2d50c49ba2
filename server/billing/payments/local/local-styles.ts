import { color, font, fontSize, lineHeight, radius } from '#shared/design-tokens.ts';

/**
 * The one stylesheet of the local provider's pages (served at /billing/local/styles.css), with
 * the site's design tokens (shared/design-tokens.ts, decision 172) so the stand-in pages look like
 * part of the product.
 */
export const localStylesheet = `
:root {
  --navy: ${color.navy}; --text: ${color.text}; --muted: ${color.textMuted}; --accent: ${color.accent}; --accent-hover: ${color.accentHover};
  --tint: ${color.accentTint}; --surface: ${color.surface}; --surface-muted: ${color.surfaceMuted}; --border: ${color.border};
  --danger: ${color.danger}; --danger-bg: ${color.dangerBg}; --success: ${color.success}; --success-bg: ${color.successBg};
  --warning: ${color.warning}; --warning-bg: ${color.warningBg}; --focus: ${color.focus};
  --on-dark: ${color.onDark}; --on-dark-muted: ${color.onDarkMuted};
  --sans: ${font.sans};
  --mono: ${font.mono};
}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: var(--sans); font-size: ${fontSize.base}; line-height: ${lineHeight}; color: var(--text); background: var(--surface-muted); }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:hover { color: var(--accent-hover); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.test-mode { margin: 0; padding: 10px 16px; background: var(--warning-bg); color: var(--warning); border-bottom: 1px solid #f5d9a8; text-align: center; font-size: 0.9375rem; }
.test-mode strong { letter-spacing: 0.06em; }
div.brand { background: var(--navy); color: var(--on-dark); padding: 14px 16px; }
div.brand .inner { max-width: 960px; margin: 0 auto; display: flex; justify-content: space-between; gap: 16px; align-items: baseline; flex-wrap: wrap; }
div.brand .name { font-weight: 700; font-size: 1.25rem; }
div.brand .sub { color: var(--on-dark-muted); font-size: 0.9375rem; }
main { max-width: 960px; margin: 0 auto; padding: 32px 16px 64px; }
h1 { font-size: clamp(1.6rem, 4vw, 2.2rem); line-height: 1.2; margin: 0 0 8px; }
h2 { font-size: 1.25rem; line-height: 1.3; margin: 0 0 16px; }
h3 { font-size: 1.0625rem; margin: 0 0 8px; }
.card h3 { margin: 32px 0 12px; padding-top: 24px; border-top: 1px solid var(--border); }
.lead { color: var(--muted); margin: 0 0 24px; }
.layout { display: grid; gap: 24px; }
@media (min-width: 800px) { .layout { grid-template-columns: 1fr 1fr; align-items: start; } }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: ${radius.lg}; padding: 24px; }
.card + .card { margin-top: 24px; }
.layout .card + .card { margin-top: 0; }
.summary dl { margin: 0; }
.line { display: flex; justify-content: space-between; gap: 16px; padding: 8px 0; border-bottom: 1px solid var(--border); }
.line dt { color: var(--muted); }
.line dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
.line.total { border-bottom: 0; font-weight: 700; font-size: 1.125rem; padding-top: 16px; }
.line.total dt { color: var(--text); }
.note { color: var(--muted); font-size: 0.9375rem; margin: 12px 0 0; }
.note.currency { margin: 0 0 16px; }
form { margin: 0; }
.field { margin: 0 0 16px; }
.field label, .field .label { display: block; font-weight: 600; margin: 0 0 4px; }
.field .hint { display: block; color: var(--muted); font-size: 0.875rem; margin: 0 0 6px; }
.field input, .field select { width: 100%; min-height: 48px; font: inherit; padding: 10px 12px; border: 1px solid #8a97ab; border-radius: ${radius.md}; background: var(--surface); color: var(--text); }
.field input[readonly] { background: var(--surface-muted); }
.field input[aria-invalid='true'] { border-color: var(--danger); border-width: 2px; }
.field .error { display: block; color: var(--danger); font-size: 0.9375rem; margin: 6px 0 0; }
.row { display: grid; gap: 16px; grid-template-columns: 1fr 1fr; }
.row.three { grid-template-columns: 1fr 1fr 1fr; align-items: end; }
@media (max-width: 640px) { .row.three { grid-template-columns: 1fr; } }
fieldset { border: 0; padding: 0; margin: 0 0 8px; min-width: 0; }
legend { font-weight: 700; font-size: 1.0625rem; margin: 0 0 12px; padding: 0; }
.test-cards { background: var(--tint); border: 1px solid #b6e2dc; border-radius: ${radius.md}; padding: 12px 16px; margin: 0 0 16px; font-size: 0.9375rem; }
.test-cards p { margin: 0 0 6px; }
.test-cards ul { margin: 0; padding-left: 20px; }
.test-cards code { font-family: var(--mono); font-weight: 600; }
.button { display: inline-flex; align-items: center; justify-content: center; min-height: 48px; padding: 10px 22px; border-radius: ${radius.md}; border: 2px solid var(--accent); background: var(--accent); color: var(--on-dark); font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
.button:hover { background: var(--accent-hover); border-color: var(--accent-hover); color: var(--on-dark); }
.button.secondary { background: var(--surface); color: var(--accent); }
.button.secondary:hover { background: var(--tint); color: var(--accent-hover); }
.button.danger { background: var(--surface); color: var(--danger); border-color: var(--danger); }
.button.danger:hover { background: var(--danger-bg); }
.button.wide { width: 100%; }
.actions { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-top: 16px; }
.alert { border-radius: ${radius.md}; padding: 12px 16px; margin: 0 0 16px; border: 1px solid; }
.alert p { margin: 0; }
.alert p + p { margin-top: 6px; }
.alert.danger { background: var(--danger-bg); color: var(--danger); border-color: #f4c7c3; }
.alert.success { background: var(--success-bg); color: var(--success); border-color: #b7e4c7; }
.alert.info { background: var(--tint); color: var(--navy); border-color: #b6e2dc; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: 0.875rem; font-weight: 600; background: var(--tint); color: var(--accent-hover); }
.badge.warn { background: var(--warning-bg); color: var(--warning); }
.badge.danger { background: var(--danger-bg); color: var(--danger); }
.badge.muted { background: var(--surface-muted); color: var(--muted); }
table { width: 100%; border-collapse: collapse; font-size: 0.9375rem; }
th, td { text-align: left; padding: 8px 8px 8px 0; border-bottom: 1px solid var(--border); vertical-align: top; }
td.amount, th.amount { text-align: right; font-variant-numeric: tabular-nums; }
.back { display: inline-block; margin: 0 0 16px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (max-width: 480px) { .row { grid-template-columns: 1fr; } .card { padding: 16px; } }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;

/**
 * The design tokens (DESIGN.md), in one place (decision 172): the site's CSS custom properties
 * (`app/styles/tokens.css`, generated from this module), the e-mails, the quote and EULA PDFs and
 * the test provider's pages all read these values. Change a value here, then run
 * `node scripts/write-design-tokens-css.ts`; a test keeps the CSS equal to this module.
 */

/** The brand navy: headers, the logo tile, the browser's theme colour. */
export const navy = '#0b1b33';

export const color = {
  navy,
  navy2: '#13294b',
  text: navy,
  textMuted: '#475569',
  accent: '#0f766e',
  accentHover: '#115e59',
  accentBright: '#2dd4bf',
  accentTint: '#e6f6f4',
  surface: '#ffffff',
  surfaceMuted: '#f4f6f9',
  border: '#d8dee8',
  onDark: '#ffffff',
  onDarkMuted: '#c3cfe0',
  success: '#166534',
  successBg: '#ecfdf3',
  danger: '#b42318',
  dangerBg: '#fef3f2',
  warning: '#92400e',
  warningBg: '#fffbeb',
  info: '#1e40af',
  infoBg: '#eff6ff',
  focus: '#2563eb',
} as const;

export const font = {
  sans: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
} as const;

/** A modular scale (1.25) from a 17 px body. */
export const fontSize = {
  sm: '0.875rem',
  base: '1.0625rem',
  lg: '1.25rem',
  xl: '1.5625rem',
  '2xl': '1.953rem',
  '3xl': '2.441rem',
  '4xl': '3.052rem',
} as const;

export const lineHeight = '1.6';

/** An 8 px grid. */
export const space = {
  1: '8px',
  2: '16px',
  3: '24px',
  4: '32px',
  5: '40px',
  6: '48px',
  8: '64px',
  10: '80px',
} as const;

export const radius = { sm: '6px', md: '8px', lg: '12px' } as const;

export const shadow = {
  sm: '0 1px 2px rgb(11 27 51 / 0.06)',
  lg: '0 12px 32px rgb(11 27 51 / 0.18)',
} as const;

export const layout = {
  headerHeight: '64px',
  contentWidth: '1200px',
  readingWidth: '72ch',
} as const;

/** `textMuted` → `text-muted`, `navy2` → `navy-2`. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/([a-z])(\d)/g, '$1-$2');
}

function properties(prefix: string, values: Record<string, string>): string[] {
  return Object.entries(values).map(([name, value]) => `  --${prefix}${kebab(name)}: ${value};`);
}

/** The tokens as the site's CSS custom properties: the text of `app/styles/tokens.css`. */
export function designTokensCss(): string {
  const groups = [
    properties('color-', color),
    [
      ...properties('font-', font),
      ...properties('font-size-', fontSize),
      ...properties('', { lineHeight }),
    ],
    [
      ...properties('space-', space),
      ...properties('radius-', radius),
      ...properties('shadow-', shadow),
      ...properties('', layout),
    ],
  ];
  return [
    '/* Generated from shared/design-tokens.ts by scripts/write-design-tokens-css.ts: do not edit. */',
    ':root {',
    groups.map((group) => group.join('\n')).join('\n\n'),
    '}',
    '',
  ].join('\n');
}

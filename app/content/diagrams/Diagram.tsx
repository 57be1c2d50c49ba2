export interface DiagramProps {
  /** URL of the static SVG (a Vite asset import: hashed, cached for a year, pre-compressed). */
  src: string;
  /** The SVG's own size (its viewBox), so the page reserves the space before it loads. */
  width: number;
  height: number;
  title: string;
  /** Everything the picture shows, for people who cannot see it. */
  description: string;
}

/**
 * A diagram as a static SVG file in an `<img>`: no component code to download or hydrate
 * (decision 080). The SVG carries its own styles with the design tokens' values; the figure
 * around it sizes it.
 */
export function Diagram({ src, width, height, title, description }: DiagramProps) {
  return (
    <img
      src={src}
      width={width}
      height={height}
      alt={`${title}. ${description}`}
      loading="lazy"
      decoding="async"
    />
  );
}

/** An environment variable that is not one of ours but is one slip away from one that is. */
export interface NearMiss {
  name: string;
  /** The known name it most likely means. */
  meant: string;
}

/**
 * Edits between two names, a swap of two neighbouring characters counting as one (optimal string
 * alignment): `SMTP_ULR` → `SMTP_URL` is 1, `DATABSE_URL` → `DATABASE_URL` is 1.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    const row = d[i] ?? [];
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * How far a name may be from a known one and still look like a slip of it: one edit for names of
 * up to 7 characters (`PORT`, `HOST`: `PATH`, `HOME` and `PGPORT` are two away and stay unnamed),
 * two for longer ones (`LOGLEVLE`). A different case alone (`smtp_url`) always counts.
 */
function allowedEdits(known: string): number {
  return known.length <= 7 ? 1 : 2;
}

/**
 * The variables of `names` that are not known but look like a slip of a known one, each with the
 * known name it is closest to (the first in `known` on a tie). Everything else in the
 * environment (PATH, HOME, NODE_OPTIONS, npm_*, other programs' settings) is left alone.
 */
export function findNearMisses(names: Iterable<string>, known: readonly string[]): NearMiss[] {
  const knownSet = new Set(known);
  const misses: NearMiss[] = [];
  for (const name of names) {
    if (knownSet.has(name)) continue;
    const upper = name.toUpperCase();
    let best: { meant: string; distance: number } | undefined;
    for (const candidate of known) {
      const distance = editDistance(upper, candidate);
      if (distance > allowedEdits(candidate)) continue;
      if (!best || distance < best.distance) best = { meant: candidate, distance };
    }
    if (best) misses.push({ name, meant: best.meant });
  }
  return misses.sort((a, b) => a.name.localeCompare(b.name));
}

/** `SMTP_ULR (did you mean SMTP_URL?), LOG_LEVLE (did you mean LOG_LEVEL?)`. */
export function describeNearMisses(misses: readonly NearMiss[]): string {
  return misses.map((miss) => `${miss.name} (did you mean ${miss.meant}?)`).join(', ');
}

/** The warning a server logs at start for them (a refusal instead on a public origin). */
export function nearMissWarning(misses: readonly NearMiss[]): string {
  return `ignored unknown ${misses.length === 1 ? 'variable' : 'variables'} ${describeNearMisses(misses)}`;
}

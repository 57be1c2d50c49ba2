/** A piece of a change-log item: plain text, or code (written between backticks in the notes). */
export interface NoteSegment {
  text: string;
  code: boolean;
}

/** Splits "Fixed `INSUFFICIENT_ACCESS` errors" into text and code segments; an unpaired backtick stays text. */
export function noteSegments(note: string): NoteSegment[] {
  const segments: NoteSegment[] = [];
  const pattern = /`([^`]+)`/g;
  let last = 0;
  for (let match = pattern.exec(note); match; match = pattern.exec(note)) {
    if (match.index > last) segments.push({ text: note.slice(last, match.index), code: false });
    segments.push({ text: match[1] ?? '', code: true });
    last = match.index + match[0].length;
  }
  if (last < note.length) segments.push({ text: note.slice(last), code: false });
  return segments;
}

/** The anchor of a release in the change log of /download, e.g. `release-3.2.2`. */
export function releaseAnchor(version: string): string {
  return `release-${version}`;
}

export const RELEASE_NOTES_ANCHOR = 'release-notes';

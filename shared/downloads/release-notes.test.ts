import { describe, expect, it } from 'vitest';
import { noteSegments, releaseAnchor } from './release-notes.ts';

describe('change-log notes', () => {
  it('marks text between backticks as code', () => {
    expect(noteSegments('No more `INSUFFICIENT_ACCESS: Inactive Organization` errors.')).toEqual([
      { text: 'No more ', code: false },
      { text: 'INSUFFICIENT_ACCESS: Inactive Organization', code: true },
      { text: ' errors.', code: false },
    ]);
    expect(noteSegments('`a` and `b`')).toEqual([
      { text: 'a', code: true },
      { text: ' and ', code: false },
      { text: 'b', code: true },
    ]);
  });

  it('leaves an unpaired backtick as text', () => {
    expect(noteSegments('a ` b')).toEqual([{ text: 'a ` b', code: false }]);
    expect(noteSegments('')).toEqual([]);
  });

  it('anchors each release by version', () => {
    expect(releaseAnchor('3.2.2')).toBe('release-3.2.2');
  });
});

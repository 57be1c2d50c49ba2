import { describe, expect, it } from 'vitest';
import { terminalField, terminalSafe, terminalSafeIo } from './terminal-text.ts';

/** What a terminal obeys: any control or format character but the line's own \n and \t. */
const RAW = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const rawOutside = (text: string) => RAW.test(text.replace(/[\n\t]/g, ''));

describe('terminalSafe (decision 208)', () => {
  it('writes ESC, BEL, CR, DEL, C1, bidi and zero-width characters as \\u escapes', () => {
    expect(terminalSafe('a\u001b]0;owned\u0007b')).toBe('a\\u001b]0;owned\\u0007b');
    expect(terminalSafe('\u001b[2J\rfake\u007f')).toBe('\\u001b[2J\\u000dfake\\u007f');
    expect(terminalSafe('Acme\u009b2J \u202eexe.txt\u200b')).toBe(
      'Acme\\u009b2J \\u202eexe.txt\\u200b',
    );
    expect(terminalSafe('x\u2028y\udc00')).toBe('x\\u2028y\\udc00');
    // Beyond U+FFFF: its two UTF-16 escapes, as JSON writes them.
    expect(terminalSafe('tag\u{e0001}')).toBe('tag\\udb40\\udc01');
  });

  it('keeps the newlines and tabs of the layout, and every printable character', () => {
    const layout = 'NUMBER\tDATE\n  Müller & Söhne — 👩‍💻 日本';
    expect(terminalSafe(layout)).toBe(layout.replace('\u200d', '\\u200d'));
    expect(rawOutside(terminalSafe('a\u001b\u009b\u202e\nb'))).toBe(false);
  });

  it('keeps --json output valid JSON for the same text', () => {
    const value = { company: 'Acme\u009b2J \u202eexe\u001b]8;;https://evil.example\u0007' };
    const printed = terminalSafe(JSON.stringify(value, null, 2));
    expect(RAW.test(printed.replace(/\n/g, ''))).toBe(false);
    expect(JSON.parse(printed)).toEqual(value);
  });

  it('a field value escapes its line breaks and tabs too', () => {
    expect(terminalField('Acme\nFake row\tX\r')).toBe('Acme\\u000aFake row\\u0009X\\u000d');
  });

  it('terminalSafeIo passes every out and err line through it', () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = terminalSafeIo({ out: (line) => out.push(line), err: (line) => err.push(line) });
    io.out('a\u001b[2Jb');
    io.err('\u202eevil');
    expect(out).toEqual(['a\\u001b[2Jb']);
    expect(err).toEqual(['\\u202eevil']);
  });
});

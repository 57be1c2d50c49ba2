import { describe, expect, it } from 'vitest';
import { terminalSession } from '#app/content/terminal-session.ts';
import {
  buildTimeline,
  firstFrameTick,
  keyDelay,
  screenAt,
  type TerminalSession,
} from './timeline.ts';

const session: TerminalSession = {
  title: 't',
  prompt: '$',
  description: 'd',
  steps: [
    { command: 'ab', output: [{ text: 'ok', tone: 'success', delay: 500 }] },
    { command: 'c', output: [] },
  ],
};

describe('terminal timeline', () => {
  it('types each command key by key, then prints its output lines', () => {
    const timeline = buildTimeline(session);
    expect(timeline.lines).toEqual([
      { kind: 'command', text: 'ab' },
      { kind: 'output', text: 'ok', tone: 'success' },
      { kind: 'command', text: 'c' },
    ]);
    // 2 keys + enter + 1 output line + 1 key + enter
    expect(timeline.ticks).toHaveLength(6);
    expect(screenAt(timeline, 0)).toEqual({ lines: [], input: '' });
    expect(screenAt(timeline, 1)).toEqual({ lines: [], input: 'a' });
    expect(screenAt(timeline, 2)).toEqual({ lines: [], input: 'ab' });
    expect(screenAt(timeline, 3)).toEqual({ lines: timeline.lines.slice(0, 1), input: null });
    expect(screenAt(timeline, 4)).toEqual({ lines: timeline.lines.slice(0, 2), input: '' });
    expect(timeline.ticks[3]?.delay).toBe(500);
  });

  it('starts from a finished first step: command, its output, an empty prompt', () => {
    const timeline = buildTimeline(session);
    expect(firstFrameTick(session)).toBe(4);
    expect(screenAt(timeline, firstFrameTick(session))).toEqual({
      lines: timeline.lines.slice(0, 2),
      input: '',
    });
    const home = buildTimeline(terminalSession);
    const frame = screenAt(home, firstFrameTick(terminalSession));
    expect(frame.input).toBe('');
    expect(frame.lines.map((line) => line.text)).toEqual([
      terminalSession.steps[0]?.command,
      ...(terminalSession.steps[0]?.output.map((line) => line.text) ?? []),
    ]);
    expect(firstFrameTick({ ...session, steps: [] })).toBe(0);
  });

  it('ends on an empty prompt after the whole transcript', () => {
    const timeline = buildTimeline(session);
    const end = screenAt(timeline, timeline.ticks.length);
    expect(end.lines).toEqual(timeline.lines);
    expect(end.input).toBe('');
    expect(screenAt(timeline, timeline.ticks.length + 5)).toEqual(end);
  });

  it('sums the delays into the duration and keeps the rhythm human', () => {
    const timeline = buildTimeline(session);
    expect(timeline.duration).toBe(timeline.ticks.reduce((sum, tick) => sum + tick.delay, 0));
    for (const [index, char] of [...'orgsmith flow:in'].entries()) {
      const delay = keyDelay(char, index);
      expect(delay).toBeGreaterThanOrEqual(30);
      expect(delay).toBeLessThanOrEqual(73);
    }
  });

  it('plays the home page session in under half a minute', () => {
    const timeline = buildTimeline(terminalSession);
    expect(timeline.duration).toBeGreaterThan(10_000);
    expect(timeline.duration).toBeLessThan(30_000);
  });

  it('shows the commands of the spec in the home page session', () => {
    const commands = terminalSession.steps.map((step) => step.command);
    expect(commands).toEqual([
      expect.stringMatching(/^orgsmith stack:create /),
      expect.stringMatching(/^orgsmith env:create /),
      expect.stringMatching(/^orgsmith flow:in /),
      expect.stringMatching(/^orgsmith flow:out .*--checkOnly/),
      expect.stringMatching(/^orgsmith flow:merge --from \S+ --into \S+/),
    ]);
  });
});

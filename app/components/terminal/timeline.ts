/** A scripted terminal session and the tick-by-tick timeline the demo plays. Pure, no DOM. */

export type OutputTone = 'plain' | 'muted' | 'success' | 'warning';

export interface OutputLine {
  text: string;
  tone: OutputTone;
  /** Milliseconds before this line appears (a long-running step waits longer). */
  delay?: number;
}

export interface TerminalStep {
  command: string;
  output: readonly OutputLine[];
}

export interface TerminalSession {
  title: string;
  prompt: string;
  /** One sentence for screen readers: what the session shows. */
  description: string;
  steps: readonly TerminalStep[];
}

export type TranscriptLine =
  { kind: 'command'; text: string } | { kind: 'output'; text: string; tone: OutputTone };

/** The screen after a tick: `complete` lines shown in full, then `typed` characters of the next command. */
export interface Tick {
  complete: number;
  typed: number;
  /** Milliseconds to wait before this tick is shown. */
  delay: number;
}

export interface Timeline {
  lines: readonly TranscriptLine[];
  ticks: readonly Tick[];
  /** Sum of all delays: how long the whole session takes to play. */
  duration: number;
}

const pauseBeforeCommand = 700;
const pauseBeforeEnter = 350;
const outputLineDelay = 120;

/** Typing rhythm: 30–58 ms per key, varied by the character so it does not look mechanical. */
export function keyDelay(char: string, index: number): number {
  const jitter = (char.charCodeAt(0) * 7 + index * 13) % 5;
  return 30 + jitter * 7 + (char === ' ' ? 15 : 0);
}

export function buildTimeline(session: TerminalSession): Timeline {
  const lines: TranscriptLine[] = [];
  const ticks: Tick[] = [];
  session.steps.forEach((step, stepIndex) => {
    const commandLine = lines.length;
    lines.push({ kind: 'command', text: step.command });
    [...step.command].forEach((char, index) => {
      const pause = index === 0 && stepIndex > 0 ? pauseBeforeCommand : 0;
      ticks.push({ complete: commandLine, typed: index + 1, delay: pause + keyDelay(char, index) });
    });
    ticks.push({ complete: commandLine + 1, typed: 0, delay: pauseBeforeEnter });
    for (const line of step.output) {
      lines.push({ kind: 'output', text: line.text, tone: line.tone });
      ticks.push({ complete: lines.length, typed: 0, delay: line.delay ?? outputLineDelay });
    }
  });
  const duration = ticks.reduce((sum, tick) => sum + tick.delay, 0);
  return { lines, ticks, duration };
}

/**
 * The tick at which the first step has finished: its command typed and entered, its output
 * printed. The server renders this frame, so the terminal is never an empty box at first paint;
 * the animation carries on from it.
 */
export function firstFrameTick(session: TerminalSession): number {
  const first = session.steps[0];
  if (!first) return 0;
  return [...first.command].length + 1 + first.output.length;
}

export interface Screen {
  lines: readonly TranscriptLine[];
  /** The command being typed at the prompt, or null while a command prints its output. */
  input: string | null;
}

/** What the terminal shows after `tickIndex` ticks (0 = an empty prompt, ticks.length = the end). */
export function screenAt(timeline: Timeline, tickIndex: number): Screen {
  const tick = tickIndex <= 0 ? undefined : timeline.ticks[tickIndex - 1];
  const complete = tick?.complete ?? (tickIndex <= 0 ? 0 : timeline.lines.length);
  const lines = timeline.lines.slice(0, complete);
  const next = timeline.lines[complete];
  if (!next) return { lines, input: '' };
  if (next.kind === 'command') return { lines, input: next.text.slice(0, tick?.typed ?? 0) };
  return { lines, input: null };
}

/** What the command reads and writes, passed in so that tests and the entry point give their own. */
export interface Io {
  readonly stdout: { isTTY?: boolean; write(text: string): unknown };
  readonly stderr: { isTTY?: boolean; write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readStdin(): Promise<string>;
}

/** Exit codes for pipelines (docs/cli.md "Exit codes"). */
export const EXIT = {
  /** nothing reached --fail-on or --min-grade */
  ok: 0,
  /** a finding reached --fail-on, or a grade is below --min-grade */
  failed: 1,
  /** a usage error, or a check that could not run */
  usage: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The worst of several outcomes: a check that could not run outweighs a finding. */
export function worstExit(codes: Iterable<number>): number {
  let worst = 0;
  for (const code of codes) worst = Math.max(worst, code);
  return worst;
}

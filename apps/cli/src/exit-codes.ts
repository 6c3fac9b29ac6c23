/**
 * Exit codes, the same for every command (listed in `--help` and apps/cli/README.md):
 * - 0 `ok`: the command did what was asked (lint: no finding at or above `--fail-on`).
 * - 1 `failed`: it ran, and the answer is "no": lint findings, differing demo traces, a run that did not
 *   complete (turn limit, aborted), a replay with mismatches.
 * - 2 `usage`: the input is wrong: unknown command or flag, missing file, invalid JSON, invalid config,
 *   unknown provider, missing API key, a catalogue that cannot be built, a store that cannot be reached or
 *   read. The message says what to fix.
 * - 3 `paused`: a run stopped on an irreversible call that needs a human and nobody could be asked.
 * - 4 `provider`: the provider answered with an error or could not be reached.
 * - 70 `internal`: a bug in toolcircuit (EX_SOFTWARE); please report it with TOOLCIRCUIT_DEBUG=1 output.
 */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  paused: 3,
  provider: 4,
  internal: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit-code table as `--help` prints it. */
export const EXIT_CODE_HELP: readonly (readonly [number, string])[] = [
  [ExitCode.ok, 'success (lint: no finding at or above --fail-on)'],
  [ExitCode.failed, 'ran, answer is no: lint findings, traces differ, run incomplete, replay mismatches'],
  [ExitCode.usage, 'usage or input error: bad flag, missing file, invalid JSON/config, unknown provider, missing key'],
  [ExitCode.paused, 'run paused: an irreversible call needs confirmation and nobody could be asked'],
  [ExitCode.provider, 'the provider answered with an error or could not be reached'],
  [ExitCode.internal, 'internal error in toolcircuit (rerun with TOOLCIRCUIT_DEBUG=1 and report it)'],
];

/**
 * When V8 optimises the CLI's code. V8 11 (Node 20) optimises a function once it has run bytecode worth its interrupt
 * budget, and again after each deoptimisation, when a later document shows it one more object shape: a run over 990
 * PDF pages made about 850 TurboFan compilations, 6 s of the compiler threads' time taken from the engine threads on
 * 2 cores. Four times the default lets a function's feedback settle before it is optimised: about 330 compilations
 * and 2 s for the same run, 8 to 14 % more pages a second and a peak resident set 10 MB lower (BENCHMARKS.md §11),
 * and a long batch reaches the same optimised code. The layout has grown since: sixteen times the default gives 495
 * PDF pages 5 % less CPU and a peak 10 MB lower than four times, 1,000 small web pages the same time, and 32 times
 * no more. V8 12 and later (Node 22 and up) tier up through Maglev by counts of calls instead, where four times those
 * counts measured no gain: left alone there.
 *
 * The launcher (bin/docmill.js) sets it for the process before the CLI loads; a library caller's process is its
 * own to tune (docs/deployment.md).
 */
export const TIERING_OPTION = '--interrupt-budget=1081344';

/** The option to set, or undefined: on V8 12 and later, or when the process was started with a budget of its own. */
export function tieringOption(v8Version: string = process.versions.v8, execArgv: readonly string[] = process.execArgv): string | undefined {
  const major = Number(v8Version.split('.')[0]);
  if (!(major < 12)) return undefined;
  return execArgv.some((option) => option.startsWith('--interrupt-budget')) ? undefined : TIERING_OPTION;
}

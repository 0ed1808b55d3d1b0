/**
 * A sandbox command line without its seccomp filter (`--seccomp FD` dropped): for tests that show
 * what a namespace or flag does alone, without the filter's refusals in front of it.
 */
export function unfiltered(command: readonly string[]): string[] {
  return command.filter((a, i) => a !== '--seccomp' && command[i - 1] !== '--seccomp');
}

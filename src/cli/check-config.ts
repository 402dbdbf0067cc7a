import { checkConfig } from '#gateway';
import { usageError } from './cli-error.ts';
import { printOutput } from './print-output.ts';

/** `tokengate check-config FILE`: prints OK or every problem (path and line), exit 0 or 2 (as the gateway would). */
export async function runCheckConfig(args: readonly string[]): Promise<void> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0) throw usageError('expected exactly one FILE', 'tokengate check-config FILE');
  const result = checkConfig(file);
  if (result.ok) printOutput(result.output);
  else process.stderr.write(`${result.output}\n`);
  process.exitCode = result.exitCode;
}

import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import { noPositionals, required } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
import { importProgress } from './import-progress.ts';

/** Runs here, beside the files (`importAddressData`), then asks a running upstream to serve the result (`reloadAddresses`). */
const importCommand: AdminCommand = {
  noun: 'address',
  verb: 'import',
  usage:
    'address import --gnaf GNAF_DIR [--json]   (runs on the upstream machine: writes under ADDRESS_DATA_DIR or DATA_DIR)',
  help: {
    summary:
      'Import a G-NAF release as the address data set (runs where the upstream runs: writes under ADDRESS_DATA_DIR or DATA_DIR).',
    options: { '--gnaf GNAF_DIR': 'the unpacked G-NAF release' },
  },
  async run(input) {
    noPositionals(input, importCommand);
    const dir = resolve(input.cwd, required(input, importCommand, 'gnaf'));
    const dataDir = resolve(
      input.cwd,
      input.env['ADDRESS_DATA_DIR']?.trim() || input.env['DATA_DIR']?.trim() || './data',
    );
    // Loaded only for this command: the other admin commands stay light.
    const { importAddressData } = await import('#admin');
    const progress = importProgress(input.stderr);
    let summary: Awaited<ReturnType<typeof importAddressData>>;
    try {
      summary = await importAddressData({ gnafDir: dir, dataDir }, { onProgress: progress.onProgress });
    } catch (error) {
      throw new CliError(`address import failed (the previous data set stays live): ${(error as Error).message}`);
    }
    progress.done(summary);
    const served = await askUpstreamToReload(input);
    const json = { ...summary, served };
    const note = served
      ? 'the running upstream now serves it'
      : 'the upstream serves it from its next start (no running upstream answered)';
    return { json, text: note };
  },
};

/** The running upstream swaps the new data set in; an upstream that is down reads it at start. */
async function askUpstreamToReload(input: CommandInput): Promise<boolean> {
  try {
    return (await input.api.reloadAddresses()).reloaded;
  } catch (error) {
    if (error instanceof CliError && /cannot reach|no admin token/.test(error.message)) return false;
    throw error;
  }
}

export const addressCommands: readonly AdminCommand[] = [importCommand];

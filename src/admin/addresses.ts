import type { ImportProgress, ImportSummary } from '#validation';
import { requireOperator } from './access.ts';

export type { ImportProgress, ImportSummary };
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { AdminError } from './errors.ts';

/** Swaps in the data set the last import installed under DATA_DIR. */
export async function reloadAddresses(ctx: AdminContext, actor: Actor): Promise<void> {
  requireOperator(actor);
  if (!ctx.reloadAddresses) throw new AdminError('not_hosted', 'this upstream hosts no address data set');
  await ctx.reloadAddresses();
  ctx.log.info({ actor }, 'admin: address data set reloaded');
}

export interface AddressImport {
  /** The G-NAF release directory. */
  readonly gnafDir: string;
  /** Where the upstream reads its data set: the import writes beside it, then swaps it in. */
  readonly dataDir: string;
}

/**
 * Installs a G-NAF release under DATA_DIR, reporting its progress to `onProgress`. It runs where
 * the files are, on the upstream's machine (`tokengate admin address import`), without a running
 * upstream; `reloadAddresses` then makes a running one serve the new set. Loaded on demand: the
 * importer is large.
 */
export async function importAddressData(
  input: AddressImport,
  options: { readonly onProgress?: (progress: ImportProgress) => void } = {},
): Promise<ImportSummary> {
  const { importGnaf } = await import('#validation');
  return importGnaf(input.gnafDir, input.dataDir, options);
}

import type { Writable } from 'node:stream';
import { type ImportProgress, type ImportSummary, importGnaf } from './import.ts';

const BAR_WIDTH = 30;

/**
 * `tokengate admin address import --gnaf DIR`: runs the import, drawing a progress bar on
 * stderr (redrawn in place at most ten times a second) and ending with a one-line summary.
 * Throws on failure; the previous data set stays live (see importGnaf).
 */
export async function runAddressImport(
  dir: string,
  options: { dataDir: string; stderr: Writable; now?: () => Date },
): Promise<ImportSummary> {
  let lastDraw = 0;
  const onProgress = (p: ImportProgress): void => {
    const now = performance.now();
    if (now - lastDraw < 100 && p.bytesDone < p.bytesTotal) return;
    lastDraw = now;
    options.stderr.write(`\r${progressLine(p)}`);
  };
  const summary = await importGnaf(dir, options.dataDir, { onProgress, ...(options.now ? { now: options.now } : {}) });
  options.stderr.write(
    `\r${progressLine({ phase: 'writing', bytesDone: 1, bytesTotal: 1, addresses: summary.addresses })}\n`,
  );
  options.stderr.write(`${summaryLine(summary)}\n`);
  return summary;
}

export function progressLine(p: ImportProgress): string {
  const fraction = p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 1;
  const filled = Math.round(fraction * BAR_WIDTH);
  const percent = String(Math.floor(fraction * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percent}% ${p.phase.padEnd(9)} ${p.addresses.toLocaleString('en-AU')} addresses`;
}

export function summaryLine(s: ImportSummary): string {
  const n = (x: number): string => x.toLocaleString('en-AU');
  return (
    `imported ${n(s.addresses)} addresses (${n(s.aliases)} aliases, ${n(s.withoutCoordinates)} without coordinates; ` +
    `skipped ${n(s.skippedRetired)} retired, ${n(s.skippedInvalid)} invalid) from ${s.files} files in ${s.seconds.toFixed(1)} s ` +
    `into ${s.dataset}`
  );
}

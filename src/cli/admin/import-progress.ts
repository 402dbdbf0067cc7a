import type { ImportProgress, ImportSummary } from '#admin';

const BAR_WIDTH = 30;

/**
 * The progress of `tokengate admin address import` on stderr: a bar redrawn in place at most ten
 * times a second, and, once the import is done, a full bar and a one-line summary. Drawing is the
 * command's business; the import itself (`importAddressData`) only reports progress.
 */
export function importProgress(stderr: Pick<NodeJS.WritableStream, 'write'>): {
  onProgress: (progress: ImportProgress) => void;
  done: (summary: ImportSummary) => void;
} {
  let lastDraw = 0;
  return {
    onProgress(p) {
      const now = performance.now();
      if (now - lastDraw < 100 && p.bytesDone < p.bytesTotal) return;
      lastDraw = now;
      stderr.write(`\r${progressLine(p)}`);
    },
    done(summary) {
      stderr.write(
        `\r${progressLine({ phase: 'writing', bytesDone: 1, bytesTotal: 1, addresses: summary.addresses })}\n`,
      );
      stderr.write(`${summaryLine(summary)}\n`);
    },
  };
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

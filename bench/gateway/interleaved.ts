import type { startChild, startLoadGenerator } from './children.ts';

type Child = Awaited<ReturnType<typeof startChild>>;
type Load = Awaited<ReturnType<typeof startLoadGenerator>>;

/** One gateway's figures: CPU µs per request and req/s of each slice, failed answers in all. */
export interface Figures {
  cpu: number[];
  rps: number[];
  non2xx: number;
}

/** A gateway under comparison and the URL the load is sent to. */
export interface Contender {
  child: Child;
  url: string;
}

/**
 * The A/B scripts' measurement: each gateway warmed with 10,000 requests three times, then
 * `rounds` of 1 s slices per gateway, interleaved with the order reversed every other round, so
 * that the machine's drift falls on every gateway alike. CPU is the gateway process's own.
 */
export async function interleave(
  load: Load,
  contenders: Record<string, Contender>,
  options: { label: string; tokensFile: string; rounds: number },
): Promise<Record<string, Figures>> {
  const job = (url: string, durationMs: number) => ({
    label: options.label,
    url,
    connections: 16,
    durationMs,
    mode: 'cycle' as const,
    tokensFile: options.tokensFile,
  });
  for (let warm = 0; warm < 3; warm++)
    for (const c of Object.values(contenders)) await load.run({ ...job(c.url, 60_000), limit: 10_000 });
  const figures: Record<string, Figures> = {};
  for (const name of Object.keys(contenders)) figures[name] = { cpu: [], rps: [], non2xx: 0 };
  for (let r = 0; r < options.rounds; r++) {
    const order = Object.entries(contenders);
    for (const [name, c] of r % 2 === 0 ? order : order.toReversed()) {
      const before = await c.child.usage();
      const res = await load.run(job(c.url, 1_000));
      const after = await c.child.usage();
      const f = figures[name] as Figures;
      f.cpu.push((after.cpuUs - before.cpuUs) / res.requests);
      f.rps.push((res.requests / res.elapsedMs) * 1000);
      f.non2xx += res.non2xx + res.errors;
    }
  }
  console.log(
    `node ${process.version}; ${options.rounds} rounds of 1 s slices per gateway, interleaved; 16 connections`,
  );
  return figures;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Names the JavaScript in a callgrind dump (not part of `npm run bench`):
 * `npx node bench/gateway/jit-costs.ts <cg.<pid>.1-01> <requests> [regex]`, after
 * `CG_NODE_FLAGS=--perf-basic-prof npx node bench/gateway/instructions.ts …` kept the dump and
 * node wrote /tmp/perf-<pid>.map. Callgrind shows JIT code as bare addresses; the map names
 * them. Prints, per request, the inclusive and self instructions of each JavaScript function
 * whose name matches `regex` (one row per tier: `*` TurboFan, `+` Maglev, `^` Sparkplug), then
 * the self total: what the matched code itself executes, whatever V8 inlined where.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const [dump = '', requestsText = '1', pattern = '.'] = process.argv.slice(2);
const requests = Number(requestsText);
const match = new RegExp(pattern);
const pid = /^cg\.(\d+)\./.exec(basename(dump))?.[1] ?? '';

// A later line for the same start is newer code at a reused address: it wins.
const latest = new Map<number, { size: number; name: string }>();
for (const line of readFileSync(`/tmp/perf-${pid}.map`, 'utf8').split('\n')) {
  const [start = '', size = '', ...name] = line.split(' ');
  if (start !== '') latest.set(Number.parseInt(start, 16), { size: Number.parseInt(size, 16), name: name.join(' ') });
}
const starts = [...latest.keys()].sort((a, b) => a - b);

function nameOf(address: number): string | undefined {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= address) lo = mid;
    else hi = mid - 1;
  }
  const entry = latest.get(starts[lo] as number);
  return entry !== undefined && (starts[lo] as number) <= address && address < (starts[lo] as number) + entry.size
    ? entry.name
    : undefined;
}

function costs(inclusive: boolean): Map<string, number> {
  const text = execFileSync(
    'callgrind_annotate',
    [`--inclusive=${inclusive ? 'yes' : 'no'}`, '--threshold=100', dump],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+)\s+\([^)]*\)\s+\?\?\?:0x([0-9a-f]+)/.exec(line);
    const name = m === null ? undefined : nameOf(Number.parseInt(m[2] as string, 16));
    if (m === null || name === undefined || !match.test(name)) continue;
    out.set(name, (out.get(name) ?? 0) + Number((m[1] as string).replaceAll(',', '')));
  }
  return out;
}

const inclusive = costs(true);
const self = costs(false);
let total = 0;
const rows = [...new Set([...inclusive.keys(), ...self.keys()])].map((name) => ({
  name,
  inclusive: (inclusive.get(name) ?? 0) / requests,
  self: (self.get(name) ?? 0) / requests,
}));
for (const row of rows.sort((a, b) => b.inclusive - a.inclusive)) {
  total += row.self;
  console.log(`${row.inclusive.toFixed(1).padStart(10)} ${row.self.toFixed(1).padStart(9)}  ${row.name}`);
}
console.log(`self total ${total.toFixed(0)} instructions/request`);

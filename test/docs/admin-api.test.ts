import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_OPERATIONS } from '#admin/contract';

const operations = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');

/** `GET /projects/:id/usage[?month=YYYY-MM]` and `POST /apikeys/:key/disable` as the table of operations writes them. */
const normal = (route: string) => route.replace(/\[.*\]$/, '').replace(/:\w+/g, ':id');

describe('the admin API reference (docs/operations.md)', () => {
  it('lists every route of the table of operations, and no route that is gone', () => {
    const section = operations.slice(operations.indexOf('## Admin API'), operations.indexOf('## Account portal'));
    const firstCells = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split(' | ')[0] ?? '');
    const documented = firstCells.flatMap((cell) =>
      [...cell.matchAll(/`([A-Z]+ [^`]+)`/g)].map((m) => normal(m[1] ?? '')),
    );
    const routes = Object.values(ADMIN_OPERATIONS).map((op) => `${op.method} ${op.path}`);
    expect([...new Set(documented)].sort()).toEqual(routes.sort());
  });
});

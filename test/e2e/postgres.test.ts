import { afterAll, describe, it } from 'vitest';
import { launchProcesses } from './launch.ts';
import { defineStackFlow } from './stack-flow.ts';
import { temporaryDatabase } from './support.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const base = process.env.TEST_DATABASE_URL;
const drops: Array<() => Promise<void>> = [];

if (base) {
  defineStackFlow('local processes, PostgreSQL', async (dir) => {
    const db = await temporaryDatabase(base);
    drops.push(db.drop);
    return launchProcesses(dir, db.url);
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
  });
} else {
  describe.skip('the local stack on PostgreSQL', () => {
    it(postgresTitle('walks the spec flow'), () => {});
  });
}

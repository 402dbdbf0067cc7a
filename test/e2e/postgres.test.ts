import { afterAll, describe } from 'vitest';
import { defineStackFlow } from './stack-flow.ts';
import { temporaryDatabase } from './support.ts';

const base = process.env.TEST_DATABASE_URL;
const drops: Array<() => Promise<void>> = [];

if (base) {
  defineStackFlow('PostgreSQL', async () => {
    const db = await temporaryDatabase(base);
    drops.push(db.drop);
    return db.url;
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
  });
} else {
  describe.skip('the local stack (PostgreSQL) (skipped: TEST_DATABASE_URL is not set)', () => {});
}

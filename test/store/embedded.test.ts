import { describe } from 'vitest';
import { embeddedHarness } from './harness.ts';
import { storeSuite } from './store-suite.ts';

describe('embedded store (PGlite in a temporary DATA_DIR)', () => {
  storeSuite(embeddedHarness);
});

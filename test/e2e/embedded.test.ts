import { defineStackFlow } from './stack-flow.ts';

defineStackFlow('embedded store', async () => undefined);

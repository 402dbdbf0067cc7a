// Preloaded by process.test.ts (NODE_OPTIONS=--import): this process's src/auth/describe.ts throws,
// as String() of a hostile alg did before issue 17, so the request path meets a bug of that class.
import { registerHooks } from 'node:module';

const THROWING = 'export function describeValue() { throw new TypeError("Cannot convert object to primitive value"); }';

registerHooks({
  load(url, context, nextLoad) {
    if (url.endsWith('/src/auth/describe.ts')) return { format: 'module', source: THROWING, shortCircuit: true };
    return nextLoad(url, context);
  },
});

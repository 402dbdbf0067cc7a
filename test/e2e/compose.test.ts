import { describe, it } from 'vitest';
import { dockerEngineAvailable, launchCompose } from './compose-stack.ts';
import { defineStackFlow } from './stack-flow.ts';

/**
 * The end-to-end walk against docker-compose.yml through testcontainers. It needs a Docker
 * engine; without one (as on the development machines and CI here, where `docker` is only a
 * client) it is skipped and says so; the local-process suites cover the same flow.
 */
if (await dockerEngineAvailable()) {
  defineStackFlow('docker compose via testcontainers', () => launchCompose());
} else {
  console.info(
    'e2e compose: skipped: no Docker engine is reachable (`docker info` failed); the local-process suites run instead',
  );
  describe.skip('the local stack on docker compose', () => {
    it('walks the spec flow (skipped: no Docker engine reachable; `docker info` failed)', () => {});
  });
}

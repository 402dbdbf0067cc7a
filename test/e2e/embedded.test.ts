import { launchProcesses } from './launch.ts';
import { defineStackFlow } from './stack-flow.ts';

defineStackFlow('local processes, embedded store', (dir) => launchProcesses(dir));

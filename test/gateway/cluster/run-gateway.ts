// The process the cluster tests start: exactly what `tokengate gateway` runs.
import { runGatewayProcess } from '#gateway';

await runGatewayProcess();

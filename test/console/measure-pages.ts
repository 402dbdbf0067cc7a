// Measures portal page latency over loopback against a real in-process upstream:
//   npx node test/console/measure-pages.ts
// Prints the median and p95 of 200 sequential GETs of three pages with 20 projects and 20 clients.
import { startTestUpstream } from '../upstream/upstream-fixture.ts';
import { createProjectViaPortal, PortalClient } from './console-client.ts';

const t = await startTestUpstream({ routes: [] });
try {
  const c = new PortalClient(t.upstream.adminUrl);
  await c.signIn(t.adminToken);
  let projectId = '';
  for (let i = 0; i < 20; i++) projectId = await createProjectViaPortal(c, `project ${i}`, 'business');
  for (let i = 0; i < 20; i++)
    await t.admin('POST', `/projects/${projectId}/clients`, { name: `client ${i}`, scopes: ['email'] });
  for (const path of [
    '/console/projects',
    `/console/projects/${projectId}/credentials/oauth-clients`,
    '/console/signing-keys',
  ]) {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      const res = await c.get(path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => (times[Math.floor(q * (times.length - 1))] ?? 0).toFixed(2);
    console.log(
      `${path.replace(projectId, ':id')}: median ${at(0.5)} ms, p95 ${at(0.95)} ms, ${Buffer.byteLength(c.lastPage)} bytes`,
    );
  }
} finally {
  await t.destroy();
}

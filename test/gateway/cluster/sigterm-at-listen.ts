// Preloaded by signals.test.ts: the gateway gets SIGTERM while its listener is starting.
import { Server } from 'node:net';

const listen = Server.prototype.listen;
let sent = false;
Server.prototype.listen = function (this: Server, ...args: unknown[]) {
  if (!sent) {
    sent = true;
    process.kill(process.pid, 'SIGTERM');
  }
  return listen.apply(this, args as Parameters<typeof listen>);
} as typeof listen;

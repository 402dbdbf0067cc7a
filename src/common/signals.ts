/**
 * Resolves with the first SIGTERM or SIGINT (Ctrl-C, docker stop, a supervisor). From then on the
 * process is draining and every later SIGTERM, SIGINT or SIGHUP is ignored: without a listener each
 * would kill it mid-drain, cutting the requests in flight. They come more often than one thinks:
 * systemd (KillMode=control-group) and `kill -TERM -PGID` signal the gateway's primary and every
 * worker, which the primary then signals again; Ctrl-C reaches the whole process group; a
 * supervisor repeats its SIGTERM; a reload's SIGHUP arrives after the watcher that handled it is
 * gone. Drains are bounded anyway, and SIGKILL still ends the process at once.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      ignoreHangUps();
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

function ignore(): void {}

/**
 * From now on a SIGHUP does not end the process, which is what Node does when nothing listens for
 * it. A process that reloads on SIGHUP (the gateway) adds its own listener once it is up; until
 * then, and in a process with nothing to reload (the upstream), a hang-up or an early
 * `systemctl reload` is ignored instead of cutting everything in flight.
 */
export function ignoreHangUps(): void {
  if (!process.listeners('SIGHUP').includes(ignore)) process.on('SIGHUP', ignore);
}

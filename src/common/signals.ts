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
    const ignore = (): void => undefined;
    const stop = (signal: NodeJS.Signals): void => {
      process.on('SIGHUP', ignore);
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

// Preloaded by fatal.test.ts: SIGUSR2 makes the gateway throw from a callback, as a bug would.
process.on('SIGUSR2', () => {
  setImmediate(() => {
    throw new Error('a bug in a callback');
  });
});

import type { Server } from 'node:http';

/**
 * Graceful stop: refuse new connections, let in-flight requests finish (idle keep-alive
 * connections are closed at once), and after `timeoutMs` cut whatever is left.
 */
export async function drain(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Connections that finish a request later are closed by Node once the server is closing.
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

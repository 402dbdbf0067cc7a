import { describe } from 'vitest';
import { startCaddy } from './real-proxies.ts';
import { realProxyCases } from './real-proxy-cases.ts';

// Debian's Caddy (/usr/bin/caddy) with deploy/caddy/Caddyfile, in front of a loopback upstream.
describe('forward-auth behind Caddy forward_auth (deploy/caddy/Caddyfile)', () => {
  realProxyCases('caddy.yaml', startCaddy);
});

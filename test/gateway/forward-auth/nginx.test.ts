import { describe } from 'vitest';
import { startNginx } from './real-proxies.ts';
import { realProxyCases } from './real-proxy-cases.ts';

// Debian's NGINX (/usr/sbin/nginx) with deploy/nginx/tokengate.conf, in front of a loopback upstream.
describe('forward-auth behind NGINX auth_request (deploy/nginx/tokengate.conf)', () => {
  realProxyCases('nginx.yaml', startNginx);
});

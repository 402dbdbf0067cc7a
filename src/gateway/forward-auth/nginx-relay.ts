import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * NGINX's `auth_request` drops the body of every answer, and lets only 2xx, 401 and 403 through:
 * any other status becomes its own 500 with no header of ours readable (ngx_http_auth_request
 * sets the `auth_request_set` variables only for those three). So in the `nginx` shape a refusal
 * also carries its status in `X-Tokengate-Status` and its body in `X-Tokengate-Body`, and a status
 * other than 401 and 403 is sent as 403; the example configuration (deploy/nginx/) reads them
 * back and answers the client exactly what the gateway would have answered it itself.
 *
 * Every refusal is written by `writeHead(status, headers)` then `end(payload)` (common/http.ts
 * sendJson): the head is held until the payload is known.
 */
export function relayForNginx(res: ServerResponse): void {
  const writeHead = res.writeHead;
  const end = res.end;
  let held: { status: number; headers: OutgoingHttpHeaders } | undefined;
  res.writeHead = function heldHead(this: ServerResponse, status: number, ...rest: unknown[]) {
    if (status < 300) return Reflect.apply(writeHead, this, [status, ...rest]) as ServerResponse;
    const headers = rest.find((value) => typeof value === 'object' && value !== null) ?? {};
    held = { status, headers: headers as OutgoingHttpHeaders };
    return this;
  } as ServerResponse['writeHead'];
  res.end = function relayedEnd(this: ServerResponse, ...args: unknown[]) {
    const head = held;
    if (head === undefined) return Reflect.apply(end, this, args) as ServerResponse;
    held = undefined;
    const chunk = args[0];
    const body = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
    Reflect.apply(writeHead, this, [
      head.status === 401 || head.status === 403 ? head.status : 403,
      { ...head.headers, 'x-tokengate-status': String(head.status), 'x-tokengate-body': asHeaderValue(body) },
    ]);
    const ended = Reflect.apply(end, this, args) as ServerResponse;
    // What the client gets, for the access line and the metrics (read when the response closes):
    // the status on the wire was only NGINX's carrier.
    this.statusCode = head.status;
    return ended;
  } as ServerResponse['end'];
}

/**
 * The JSON body as one header value: every character outside printable ASCII written as a JSON
 * `\uXXXX` escape, the same JSON value, which no header can be split by.
 */
export function asHeaderValue(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One message of a response byte stream, as a client reading it in order would frame it. */
export interface FramedResponse {
  readonly status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Splits what a connection carried (latin1 text) into its responses the way an HTTP/1.1 client
 * reads them (RFC 9112 §6.3): a 1xx has no body, otherwise Content-Length or chunked framing, else
 * the body runs to the end. Throws where the bytes are not a response at all, so a test sees a
 * broken framing as a failure with the offending text.
 */
export function frameResponses(text: string): FramedResponse[] {
  const out: FramedResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    const head = end === -1 ? '' : text.slice(at, end);
    const line = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?(?:\r\n|$)/.exec(head);
    if (!line) throw new Error(`not a response head at byte ${at}: ${JSON.stringify(text.slice(at, at + 80))}`);
    const status = Number(line[1]);
    const headers: Record<string, string> = {};
    for (const field of head.split('\r\n').slice(1)) {
      const colon = field.indexOf(':');
      headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
    }
    at = end + 4;
    let body = '';
    if (status >= 200) [body, at] = readBody(text, at, headers);
    out.push({ status, headers, body });
  }
  return out;
}

function readBody(text: string, at: number, headers: Record<string, string>): [string, number] {
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    let body = '';
    let from = at;
    for (;;) {
      const eol = text.indexOf('\r\n', from);
      const size = Number.parseInt(text.slice(from, eol), 16);
      if (eol === -1 || Number.isNaN(size)) throw new Error(`bad chunk size at byte ${from}`);
      if (size === 0) return [body, text.indexOf('\r\n', eol + 2) + 2];
      body += text.slice(eol + 2, eol + 2 + size);
      from = eol + 2 + size + 2;
    }
  }
  const length = headers['content-length'];
  if (length !== undefined) return [text.slice(at, at + Number(length)), at + Number(length)];
  return [text.slice(at), text.length];
}

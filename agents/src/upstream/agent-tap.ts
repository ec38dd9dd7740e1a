import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXCHANGE_HEADER, readBody, recordableHeaders } from '@distil/savings';

/** One request exactly as the agent sent it. */
export interface AgentRequest {
  /** 1, 2, 3, … in arrival order; the upstream calls serving it carry the same number. */
  readonly exchange: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** A running tap. */
export interface AgentTap {
  readonly url: string;
  readonly requests: readonly AgentRequest[];
  close(): Promise<void>;
}

/**
 * A recording relay between an agent and where it sends its requests (the fake upstream directly, or the
 * Distil proxy): keeps every body as the agent sent it, numbers it, and forwards it with that number in a
 * header, so each upstream call can be tied to the agent request it serves. Responses stream back as they
 * arrive. The same tap sits in both routes, so the direct and the proxied run differ only by the proxy.
 */
export async function startAgentTap(target: string): Promise<AgentTap> {
  const requests: AgentRequest[] = [];
  const destination = new URL(target);
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const exchange = requests.length + 1;
    requests.push({
      exchange,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: recordableHeaders(req),
      body,
    });
    const headers = { ...req.headers, host: destination.host, [EXCHANGE_HEADER]: String(exchange) };
    delete headers.connection;
    const upstream = httpRequest(
      {
        host: destination.hostname,
        port: destination.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: `tap: ${error.message}` } }));
    });
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

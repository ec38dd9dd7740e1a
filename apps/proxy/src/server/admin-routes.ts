import type { ServerResponse } from 'node:http';
import type { ProxyRuntime } from '../runtime.js';
import type { AdminHandler } from './routes.js';

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Distil's built-in endpoints: `/distil/health` (with the keep model that runs, and `"fallback"` when it
 * is the rules standing in for the configured one) and `/distil/savings` (totals from billed usage).
 */
export function builtInAdminRoutes(rt: ProxyRuntime): Record<string, AdminHandler> {
  return {
    '/distil/health': (_req, res) =>
      sendJson(res, 200, {
        ok: true,
        sessions: rt.sessions.size,
        keepModel: rt.keepModel.id,
        ...(rt.keepModelFallback ? { keepModelStatus: 'fallback' } : {}),
      }),
    '/distil/savings': (_req, res) => sendJson(res, 200, rt.ledger.totals()),
  };
}

/** 404 for an unknown Distil endpoint, 401 when the admin policy refuses. */
export function adminRefusal(res: ServerResponse, status: 401 | 404): void {
  sendJson(res, status, {
    error:
      status === 401
        ? 'this endpoint needs the admin token (x-distil-admin-token)'
        : 'no such Distil endpoint',
  });
}

import { once } from 'node:events';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type McpServerDeps } from './mcp-server.js';

/**
 * Serves Distil's MCP tools on this process's stdin/stdout until the client goes away (stdin ends), then
 * closes the server. Nothing else may write to stdout meanwhile: it carries the protocol; log to stderr.
 */
export async function serveMcpStdio(deps: McpServerDeps): Promise<void> {
  const server = createMcpServer(deps);
  const ended = Promise.race([once(process.stdin, 'end'), once(process.stdin, 'close')]);
  await server.connect(new StdioServerTransport());
  await ended;
  await server.close();
}

// `@distil/proxy/mcp`: the MCP server, behind its own entry so the proxy never loads the MCP SDK.
export { createMcpServer, type McpServerDeps } from './mcp-server.js';
export { serveMcpStdio } from './serve-stdio.js';

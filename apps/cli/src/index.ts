export { DEFAULT_CONFIG_FILE, type LoadedConfig, loadConfig } from './config-file.js';
export { buildProgram } from './program.js';
export { type Cell, formatTable } from './table.js';

import type { Command } from 'commander';
import { registerConfigCheck } from './config-check.js';

/** Every command the CLI offers; each file registers one command (or one command group). */
export const COMMANDS: readonly ((program: Command) => void)[] = [registerConfigCheck];

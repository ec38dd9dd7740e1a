#!/usr/bin/env node
import { ValidationError } from '@distil/contract';
import { buildProgram } from './program.js';

/** Prints an error the way a user should see it: every field for bad input, one line otherwise. */
function report(error: unknown): number {
  if (error instanceof ValidationError) {
    process.stderr.write(`distil: ${error.message}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`distil: ${message}\n`);
  if (process.env['DISTIL_DEBUG'] && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return 1;
}

// A closed pipe (`distil compress … | head`) is a normal way for a reader to stop, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

buildProgram(process.argv)
  .then((program) => program.parseAsync(process.argv))
  .catch((error: unknown) => {
    process.exitCode = report(error);
  });

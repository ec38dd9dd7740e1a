export {
  asCodexExec,
  asCodexJson,
  asPersistedOutput,
  asReadOutput,
  type CiLog,
  type CodexExecOptions,
  ciLog,
  READ_REMINDER,
  type ReadOutputOptions,
} from './agent-outputs.js';
export {
  type ForwardedEncoding,
  type ForwardedText,
  handlesIn,
  readForwarded,
  resolveHandle,
} from './forwarded-text.js';

/**
 * The one module that owns tfjs and picks its backend. tfjs-node (native TensorFlow) is used when it is
 * installed and loads; its install script downloads libtensorflow, which fails on machines without that
 * host, so it is optional and the wasm backend (SIMD, one thread per worker) is the dependable default.
 * The pure-JS CPU backend is ~20× slower to train on and is used only when asked for.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

export { tf };

/** Which tfjs backend to train on: `auto` tries tfjs-node, then wasm. */
export type BackendPreference = 'auto' | 'node' | 'wasm' | 'cpu';

let active: Promise<string> | undefined;

/** Optional native package: not a dependency, loaded only if the user installed it. */
const TFJS_NODE = '@tensorflow/tfjs-node';

async function tryNative(): Promise<boolean> {
  try {
    await import(TFJS_NODE);
    return tf.findBackend('tensorflow') !== undefined && (await tf.setBackend('tensorflow'));
  } catch {
    return false;
  }
}

async function select(preference: BackendPreference): Promise<string> {
  if (preference === 'node' || preference === 'auto') {
    if (await tryNative()) return 'tensorflow';
    if (preference === 'node') {
      throw new Error(`backend "node" asked for, but ${TFJS_NODE} is not installed or does not load here`);
    }
  }
  const name = preference === 'cpu' ? 'cpu' : 'wasm';
  if (!(await tf.setBackend(name))) throw new Error(`the tfjs ${name} backend failed to initialise`);
  await tf.ready();
  return name;
}

/**
 * Selects the backend once per thread and returns its name (`tensorflow`, `wasm` or `cpu`). Later calls
 * return the first choice, whatever they ask for: tensors cannot move between backends mid-run.
 */
export function ensureBackend(preference: BackendPreference = 'auto'): Promise<string> {
  active ??= select(preference);
  return active;
}

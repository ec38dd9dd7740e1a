import { packageBuild } from '../../tsup.base.js';

// The compress worker is an entry of its own at the top of dist/, beside the chunks that start it.
export default packageBuild({
  index: 'src/index.ts',
  'mcp/index': 'src/mcp/index.ts',
  'compress-worker': 'src/pool/compress-worker.ts',
});

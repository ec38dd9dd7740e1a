import { packageBuild } from '../../tsup.base.js';

// The gradient worker is its own file: worker threads start it by path (worker-gradient-engine.ts).
export default packageBuild({ index: 'src/index.ts', 'gradient-worker': 'src/gradient-worker.ts' });

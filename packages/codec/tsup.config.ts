import { packageBuild } from '../../tsup.base.js';

export default packageBuild({ index: 'src/index.ts', 'transformer/index': 'src/transformer/index.ts' });

export { type Bm25Hit, Bm25Index, type Bm25Params, tokenize } from './bm25-index.js';
export { CHUNK_DEFAULTS, type ChunkOptions, chunkLines, type TextChunk } from './chunk-lines.js';
export { expand, parseHandle } from './expand.js';
export { INDEX_CACHE_DEFAULTS, type IndexCacheLimits } from './index-cache.js';
export { createSearcher, type Searcher, type SearcherOptions, type SearchHit, search } from './search.js';

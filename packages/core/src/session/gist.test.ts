import { handleFor } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { GistCache } from './gist.js';

const read = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } } },
};
const grep = {
  name: 'grep',
  description: 'Search',
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
};

describe('GistCache', () => {
  it('sends a schema in full once, then a gist that points to it by handle', () => {
    const cache = new GistCache();
    expect(cache.gistToolSchemas([read, grep])).toEqual({ tools: [read, grep], gisted: [] });
    const second = cache.gistToolSchemas([read, { ...grep, description: 'Search files' }]);
    expect(second.gisted).toEqual(['read_file']);
    expect(second.tools[0]).toEqual({
      name: 'read_file',
      description: expect.stringMatching(
        /^<< schema of read_file as sent in full earlier in this session, handle=dh_[0-9a-f]{12} >>$/,
      ),
    });
    expect(second.tools[1]).toEqual({ ...grep, description: 'Search files' });
  });

  it('addresses schemas by canonical bytes, so key order does not matter', () => {
    const cache = new GistCache();
    cache.gistToolSchemas([read]);
    const reordered = { input_schema: read.input_schema, description: read.description, name: read.name };
    expect(cache.gistToolSchemas([reordered]).gisted).toEqual(['read_file']);
    expect(cache.has(handleFor(JSON.stringify(read)))).toBe(false);
  });
});

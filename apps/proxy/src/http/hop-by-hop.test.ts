import { describe, expect, it } from 'vitest';
import { forwardableHeaders } from './hop-by-hop.js';

describe('forwardableHeaders (RFC 9110 §7.6.1)', () => {
  it('drops hop-by-hop fields, the fields Connection names, host, and Distil’s own when asked', () => {
    const out = forwardableHeaders(
      {
        host: 'proxy:8788',
        connection: 'keep-alive, X-Trace-Hop',
        'x-trace-hop': '1',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'transfer-encoding': 'chunked',
        upgrade: 'h2c',
        'proxy-authorization': 'Basic x',
        'content-length': '12',
        authorization: 'Bearer sk-key',
        'x-distil-session': 's1',
        'anthropic-beta': 'a,b',
      },
      { dropDistil: true, dropFraming: true },
    );
    expect(out).toEqual({ authorization: 'Bearer sk-key', 'anthropic-beta': 'a,b' });
  });

  it('keeps content-length and repeated values unless told otherwise', () => {
    expect(forwardableHeaders({ 'content-length': '3', 'set-cookie': ['a=1', 'b=2'] })).toEqual({
      'content-length': '3',
      'set-cookie': ['a=1', 'b=2'],
    });
  });
});

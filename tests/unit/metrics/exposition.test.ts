/**
 * The text format's rules (exposition format 0.0.4): label values escape exactly backslash,
 * double quote and line feed; HELP escapes backslash and line feed; families come out sorted
 * by name; a family without samples is left out; names the format forbids are refused.
 */
import { describe, expect, it } from 'vitest';
import { escapeHelp, escapeLabelValue, formatValue, renderExposition, type MetricFamily } from '@/lib/asynq/metrics/exposition';
import { queueFamilies } from '@/lib/asynq/metrics/queue-families';

describe('escaping', () => {
  it.each([
    ['plain', 'plain'],
    ['a"b', 'a\\"b'],
    ['back\\slash', 'back\\\\slash'],
    ['new\nline', 'new\\nline'],
    ['\\"\n', '\\\\\\"\\n'],
    ['tab\tand\rcr', 'tab\tand\rcr'],
    ['очередь-日本 🚀', 'очередь-日本 🚀'],
    ['{a=b},', '{a=b},'],
  ])('label value %j → %j', (raw, escaped) => {
    expect(escapeLabelValue(raw)).toBe(escaped);
  });

  it('escapes backslash and line feed in HELP, and leaves double quotes alone', () => {
    expect(escapeHelp('a\\b\n"c"')).toBe('a\\\\b\\n"c"');
  });
});

describe('values', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [1_000_000, '1000000'],
    [12.345, '12.345'],
    [-0.5, '-0.5'],
    [Number.NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('%d is written %s', (v, text) => {
    expect(formatValue(v)).toBe(text);
    if (!Number.isNaN(v)) expect(Number(text.replace('Inf', 'Infinity'))).toBe(v);
  });
});

describe('renderExposition', () => {
  const fam = (name: string, samples: MetricFamily['samples']): MetricFamily => ({ name, help: `help of ${name}`, type: 'gauge', samples });

  it('sorts families by name, keeps sample order, and drops empty families', () => {
    const text = renderExposition([
      fam('b_metric', [{ labels: [['queue', 'z']], value: 2 }, { labels: [['queue', 'a']], value: 1 }]),
      fam('a_empty', []),
      fam('a_metric', [{ labels: [], value: 3 }]),
    ]);
    expect(text).toBe(
      [
        '# HELP a_metric help of a_metric',
        '# TYPE a_metric gauge',
        'a_metric 3',
        '# HELP b_metric help of b_metric',
        '# TYPE b_metric gauge',
        'b_metric{queue="z"} 2',
        'b_metric{queue="a"} 1',
        '',
      ].join('\n'),
    );
  });

  it('is empty with no samples at all', () => {
    expect(renderExposition([fam('x', [])])).toBe('');
  });

  it('refuses a metric or label name the format does not allow', () => {
    expect(() => renderExposition([fam('bad-name', [{ labels: [], value: 1 }])])).toThrow('invalid metric name "bad-name"');
    expect(() => renderExposition([fam('ok', [{ labels: [['bad label', 'v']], value: 1 }])])).toThrow('invalid label name "bad label"');
  });
});

describe('queueFamilies', () => {
  const q = {
    queue: 'q', paused: false, size: 0, pending: 0, active: 0, scheduled: 0, retry: 0, archived: 0, completed: 0,
    aggregating: 0, processedTotal: 0, failedTotal: 0, latencySeconds: 0, memoryUsageBytes: null,
  };

  it('writes asynq_queue_memory_usage_approx_bytes only for a queue whose memory use is known', () => {
    const text = renderExposition(queueFamilies([q, { ...q, queue: 'measured', memoryUsageBytes: 2048 }]));
    expect(text.match(/^asynq_queue_memory_usage_approx_bytes.*$/gm)).toEqual(['asynq_queue_memory_usage_approx_bytes{queue="measured"} 2048']);
    expect(renderExposition(queueFamilies([q]))).not.toContain('memory');
  });

  it('leaves an unreadable queue out of every asynq series and names it in asynqlens_queue_unreadable', () => {
    const text = renderExposition(queueFamilies([{ ...q, queue: '}bad', problem: 'keys span slots' }, { ...q, queue: 'ok', pending: 3, size: 3 }]));
    expect(text).not.toMatch(/^asynq_.*\}bad/m);
    expect(text).toContain('asynq_queue_size{queue="ok"} 3\n');
    expect(text.match(/^asynqlens_queue_unreadable.*$/gm)).toEqual(['asynqlens_queue_unreadable{queue="}bad"} 1']);
    expect(renderExposition(queueFamilies([q]))).not.toContain('unreadable');
  });

  it('writes nothing for no queues', () => {
    expect(renderExposition(queueFamilies([]))).toBe('');
  });
});

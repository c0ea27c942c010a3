import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SafeText } from '@/components/ui/safe-text';
import { escapeChar, escapeInvisible, escapeText, hasInvisible } from '@/lib/display-text';
import { preview } from '@/lib/utils';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Every code point the console must show escaped, by the family the issue names. */
const ESCAPED: Record<string, number[]> = {
  'C0 controls': range(0x00, 0x1f),
  DEL: [0x7f],
  'C1 controls': range(0x80, 0x9f),
  'bidi embeddings and overrides (LRE RLE PDF LRO RLO)': range(0x202a, 0x202e),
  'bidi isolates (LRI RLI FSI PDI)': range(0x2066, 0x2069),
  'LRM, RLM': [0x200e, 0x200f],
  'arabic letter mark': [0x061c],
  'zero width space, non-joiner, joiner': range(0x200b, 0x200d),
  'BOM / zero width no-break space': [0xfeff],
  'line and paragraph separators': [0x2028, 0x2029],
  'word joiner, invisible operators, deprecated format controls': range(0x2060, 0x206f),
  'soft hyphen, grapheme joiner, hangul fillers, mongolian selectors': [0xad, 0x34f, 0x115f, 0x1160, 0x3164, 0xffa0, ...range(0x180b, 0x180f)],
  'interlinear annotation': range(0xfff9, 0xfffb),
  'tag characters': [0xe0000, 0xe0001, 0xe0041, 0xe007f],
};

describe('escapeInvisible', () => {
  for (const [family, points] of Object.entries(ESCAPED)) {
    it(`escapes every ${family}`, () => {
      for (const cp of points) {
        const ch = String.fromCodePoint(cp);
        const text = `a${ch}b`;
        expect(hasInvisible(text), cp.toString(16)).toBe(true);
        const segs = escapeInvisible(text);
        expect(segs.map((s) => s.text).join('')).toBe(`a${escapeChar(ch)}b`);
        expect(segs[1]).toMatchObject({ escaped: true, codePoint: cp });
        expect(escapeText(text)).not.toContain(ch);
      }
    });
  }

  it('writes \\uXXXX, \\u{XXXXX} and the three short forms', () => {
    expect(escapeText('pay\u202Efdp.exe')).toBe('pay\\u202Efdp.exe');
    expect(escapeText('a\u0000\u0007\u007F\u0085')).toBe('a\\u0000\\u0007\\u007F\\u0085');
    expect(escapeText('tab\there\nand\rthere')).toBe('tab\\there\\nand\\rthere');
    expect(escapeText('\u{E0041}')).toBe('\\u{E0041}');
  });

  it('keeps tab, LF and CR in bodies, and escapes everything else there', () => {
    const body = 'line one\n\tline two\r\n\u200Bthree\u0007';
    expect(hasInvisible('line one\n\tline two\r\n', { keepLineBreaks: true })).toBe(false);
    expect(escapeText(body, { keepLineBreaks: true })).toBe('line one\n\tline two\r\n\\u200Bthree\\u0007');
  });

  it('leaves clean and legitimately non-Latin text as one plain run', () => {
    for (const text of ['email:welcome', 'очередь-日本', 'שלום עולם', 'مرحبا', 'emoji 👍🏽 ✔️ 👩‍💻'.replace('\u200D', ''), 'nbsp\u00A0ok', '']) {
      expect(hasInvisible(text)).toBe(false);
      expect(escapeInvisible(text)).toEqual([{ text, escaped: false }]);
    }
  });

  it('splits runs in order, with adjacent escapes kept apart', () => {
    expect(escapeInvisible('\u202E\u200Bx\u0001')).toEqual([
      { text: '\\u202E', escaped: true, codePoint: 0x202e },
      { text: '\\u200B', escaped: true, codePoint: 0x200b },
      { text: 'x', escaped: false },
      { text: '\\u0001', escaped: true, codePoint: 0x01 },
    ]);
  });

  it('escapes lone surrogates but keeps pairs', () => {
    expect(escapeText('a\uD83Db')).toBe('a\\uD83Db');
    expect(escapeText('a\uDC4Db')).toBe('a\\uDC4Db');
    expect(escapeText('a\uD83D\uDC4Db')).toBe('a\uD83D\uDC4Db');
  });
});

describe('SafeText', () => {
  const html = (text: string, keepLineBreaks = false) => renderToStaticMarkup(createElement(SafeText, { text, keepLineBreaks }));

  it('renders clean text as a bare string', () => {
    expect(html('default')).toBe('default');
  });

  it('renders each escape as a styled span with its code point, never the raw character', () => {
    const out = html('in\u202Evoice\u200B\u0007');
    expect(out).toContain('<span data-escaped="U+202E"');
    expect(out).toContain('>\\u202E</span>');
    expect(out).toContain('data-escaped="U+200B"');
    expect(out).toContain('data-escaped="U+0007"');
    for (const raw of ['\u202E', '\u200B', '\u0007']) expect(out).not.toContain(raw);
    expect(out.startsWith('<bdi')).toBe(true);
  });
});

describe('preview', () => {
  it('folds ASCII spacing only, so invisible characters reach the display', () => {
    expect(preview('  a\n\tb  ')).toBe('a b');
    expect(preview('\uFEFFa\u2028b\u00A0')).toBe('\uFEFFa\u2028b\u00A0');
  });
});

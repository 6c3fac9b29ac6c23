/**
 * For adapters: a provider's span of a text, counted in code points (OpenAI's annotation indices) or UTF-8
 * bytes (Gemini's grounding segments), as the UTF-16 indices a `SourcePart.textRange` holds. Indices past the
 * text are clamped to its end; a range that comes out empty or reversed gives `undefined`.
 */
export function textRangeOfCodePoints(
  text: string,
  start: number,
  end: number,
): { readonly start: number; readonly end: number } | undefined {
  return rangeOf(text, start, end, () => 1);
}

export function textRangeOfUtf8Bytes(
  text: string,
  start: number,
  end: number,
): { readonly start: number; readonly end: number } | undefined {
  return rangeOf(text, start, end, utf8Length);
}

function rangeOf(
  text: string,
  start: number,
  end: number,
  unitsOf: (codePoint: number) => number,
): { readonly start: number; readonly end: number } | undefined {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start) return undefined;
  let units = 0;
  let from: number | undefined;
  let to: number | undefined;
  let index = 0;
  while (index < text.length) {
    if (from === undefined && units >= start) from = index;
    if (units >= end) {
      to = index;
      break;
    }
    const codePoint = text.codePointAt(index) as number;
    units += unitsOf(codePoint);
    index += codePoint > 0xffff ? 2 : 1;
  }
  from ??= text.length;
  to ??= text.length;
  return to > from ? { start: from, end: to } : undefined;
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

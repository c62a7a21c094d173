const formats = new Map<string, Intl.NumberFormat>();

/**
 * An `Intl.NumberFormat`, one per language and options, kept: making one is slow (the first of a
 * kind loads its locale data, tens of milliseconds on a busy machine), and the status bar, the
 * context meter and the chat format numbers on every render.
 */
export function numberFormat(language: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, options);
    formats.set(key, format);
  }
  return format;
}

export const COMPACT_NUMBER: Intl.NumberFormatOptions = { notation: 'compact', maximumFractionDigits: 1 };

// How many terminal columns text takes, as Trino's CLI measures it (JLine's wcwidth, one UTF-16 unit at
// a time, after stripping ANSI escape sequences): East Asian wide and fullwidth characters take two,
// combining marks, format characters and control characters none, everything else one. Characters
// beyond the BMP come as two surrogates of one column each, as in Java.

/** CSI escape sequences (colours, cursor moves). */
const ANSI_ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const PLAIN_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff\u200b\x00-\x1f\x7f-\x9f]/u;
/** East Asian Wide (W) and Fullwidth (F) characters of the BMP (Unicode 16 EastAsianWidth.txt). */
const WIDE =
  /[\u1100-\u115f\u231a\u231b\u2329\u232a\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2630-\u2637\u2648-\u2653\u267f\u268a-\u268f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55\u2e80-\u303e\u3041-\u33ff\u3400-\u4dff\u4e00-\ua4cf\ua960-\ua97c\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6]/;

export function consoleWidth(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length;
  const plain = text.replace(ANSI_ESCAPE, '');
  let width = 0;
  for (let i = 0; i < plain.length; i++) width += unitWidth(plain[i]!);
  return width;
}

/** The widest line of a value that may span several. */
export function maxLineWidth(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, consoleWidth(line));
  return widest;
}

function unitWidth(unit: string): number {
  // The soft hyphen is a format character that takes a column.
  if (unit !== '\u00ad' && ZERO_WIDTH.test(unit)) return 0;
  return WIDE.test(unit) ? 2 : 1;
}

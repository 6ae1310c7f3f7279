// The file formats of the lake, by name. Adding a format is one line in FORMATS; a table of a
// format not here fails, naming it, when it is created or read.

import { EngineError } from '../../../errors/engine-error.js';
import { csvFormat } from './csv/csv-format.js';
import type { FileFormat, FormatName } from './file-format.js';
import { jsonFormat } from './json/json-format.js';
import { ParquetFormat } from './parquet/parquet-format.js';

const FORMATS: ReadonlyMap<FormatName, FileFormat> = new Map<FormatName, FileFormat>([
  ['PARQUET', new ParquetFormat()],
  ['CSV', csvFormat],
  ['JSON', jsonFormat],
]);

export function hasFileFormat(name: FormatName): boolean {
  return FORMATS.has(name);
}

export function fileFormat(name: FormatName): FileFormat {
  const format = FORMATS.get(name);
  if (format === undefined)
    throw new EngineError('NOT_SUPPORTED', `Format ${name} is not supported yet (supported: ${[...FORMATS.keys()].join(', ')})`);
  return format;
}

/** The extension of the files a format writes. */
export function fileExtension(name: FormatName): string {
  return `.${name.toLowerCase()}`;
}

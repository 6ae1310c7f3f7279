// The numbers Parquet's thrift definition gives its enums (parquet.thrift), by name.

export const enum PhysicalType {
  Boolean = 0,
  Int32 = 1,
  Int64 = 2,
  Int96 = 3,
  Float = 4,
  Double = 5,
  ByteArray = 6,
  FixedLenByteArray = 7,
}

export const PHYSICAL_TYPE_NAMES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'];

export const enum Repetition {
  Required = 0,
  Optional = 1,
  Repeated = 2,
}

export const enum ConvertedType {
  Utf8 = 0,
  Map = 1,
  MapKeyValue = 2,
  List = 3,
  Enum = 4,
  Decimal = 5,
  Date = 6,
  TimeMillis = 7,
  TimeMicros = 8,
  TimestampMillis = 9,
  TimestampMicros = 10,
  Uint8 = 11,
  Uint16 = 12,
  Uint32 = 13,
  Uint64 = 14,
  Int8 = 15,
  Int16 = 16,
  Int32 = 17,
  Int64 = 18,
  Json = 19,
  Bson = 20,
  Interval = 21,
}

export const enum Encoding {
  Plain = 0,
  PlainDictionary = 2,
  Rle = 3,
  BitPacked = 4,
  DeltaBinaryPacked = 5,
  DeltaLengthByteArray = 6,
  DeltaByteArray = 7,
  RleDictionary = 8,
  ByteStreamSplit = 9,
}

export const enum Codec {
  Uncompressed = 0,
  Snappy = 1,
  Gzip = 2,
  Lzo = 3,
  Brotli = 4,
  Lz4 = 5,
  Zstd = 6,
  Lz4Raw = 7,
}

export const CODEC_NAMES = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];

export const enum PageType {
  DataPage = 0,
  IndexPage = 1,
  DictionaryPage = 2,
  DataPageV2 = 3,
}

export type TimeUnit = 'MILLIS' | 'MICROS' | 'NANOS';

/** Parquet's LogicalType union, as the fields we read. */
export type LogicalType =
  | {
      kind:
        | 'STRING'
        | 'MAP'
        | 'LIST'
        | 'ENUM'
        | 'DATE'
        | 'UNKNOWN'
        | 'JSON'
        | 'BSON'
        | 'UUID'
        | 'FLOAT16'
        | 'VARIANT'
        | 'GEOMETRY'
        | 'GEOGRAPHY';
    }
  | { kind: 'DECIMAL'; precision: number; scale: number }
  | { kind: 'TIME' | 'TIMESTAMP'; isAdjustedToUTC: boolean; unit: TimeUnit }
  | { kind: 'INTEGER'; bitWidth: number; isSigned: boolean };

/** "PAR1": the first and last four bytes of every Parquet file. */
export const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]);

// The char(n) variants of string functions, as Trino declares them (StringFunctions, CharMethods).
// A char argument binds here before it would coerce to varchar (which drops its padding): these
// are the functions that see a char value padded to n, or that return char(n). Every other string
// function takes a char argument as varchar, unpadded, as Trino's implicit char -> varchar does.

import { EngineError } from '../../errors/engine-error.js';
import { padChar, trimTrailingSpaces } from '../../types/chars.js';
import { MAX_CHAR_LENGTH } from '../../types/parse-type.js';
import { type SqlType, BIGINT, VARBINARY, VARCHAR, varchar } from '../../types/types.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';
import { clampToInt, lpad, reverseCodePoints, substr, toUtf8, trimCharSet } from './string-functions.js';
import { mapCase } from './unicode.js';

const CHAR_X = { family: 'char' } as const;
const VARCHAR_X = { family: 'varchar' } as const;

function charLength(type: SqlType): number {
  if (type.kind !== 'char') throw new Error(`char function bound to ${type.kind}`);
  return type.length;
}

/** varchar(n) for a char(n) argument: what Trino's substr of a char returns. */
const varcharOfCharLength = (types: readonly SqlType[]): SqlType => varchar(charLength(types[0]));

/** A template whose body gets the first argument padded to its char length. */
function padded(
  params: SignatureTemplate['params'],
  returnType: SignatureTemplate['returnType'],
  f: (text: string, ...rest: never[]) => string | bigint | Uint8Array,
  returnTypeDisplay?: string,
): SignatureTemplate {
  return {
    params,
    returnType,
    returnTypeDisplay,
    implement: ([type]) => {
      const length = charLength(type);
      return body((value: string, ...rest: never[]) => f(padChar(value, length), ...rest));
    },
  };
}

/** char(x) || char(y) is char(x + y): the left value padded, then the right one (Trino's char concat). */
const CHAR_CONCAT: SignatureTemplate = {
  params: [CHAR_X, CHAR_X],
  returnType: ([left, right]) => {
    const length = charLength(left) + charLength(right);
    if (length > MAX_CHAR_LENGTH) throw new EngineError('TYPE_NOT_FOUND', `Unknown type: char(${length})`);
    return { kind: 'char', length };
  },
  implement: ([left]) => {
    const length = charLength(left);
    return body((a: string, b: string) => (b === '' ? a : padChar(a, length) + b));
  },
};

/** trim(s, chars) with a char(n) set of characters: the set includes the padding's space (Trino pads it). */
function trimWithCharSet(leading: boolean, trailing: boolean): SignatureTemplate {
  return {
    params: [VARCHAR_X, CHAR_X],
    returnType: (types) => types[0],
    implement: ([, set]) => {
      const length = charLength(set);
      return body((s: string, chars: string) => trimCharSet(s, padChar(chars, length), leading, trailing));
    },
  };
}

export const CHAR_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['length'],
    description: 'Count of code points of the given string',
    signatures: [
      {
        params: [CHAR_X],
        returnType: BIGINT,
        implement: ([type]) => {
          const length = BigInt(charLength(type)); // a char(n) is n code points long, whatever its value
          return body(() => length);
        },
      },
    ],
  },
  {
    names: ['lower'],
    description: 'Converts the string to lower case',
    signatures: [{ params: [CHAR_X], returnType: (types) => types[0], implement: () => body((s: string) => mapCase(s, false)) }],
  },
  {
    names: ['upper'],
    description: 'Converts the string to upper case',
    signatures: [{ params: [CHAR_X], returnType: (types) => types[0], implement: () => body((s: string) => mapCase(s, true)) }],
  },
  {
    names: ['substr', 'substring'],
    description: 'Substring of given length starting at an index',
    signatures: [
      padded(
        [CHAR_X, BIGINT],
        varcharOfCharLength,
        (s: string, start: bigint) => substr(s, clampToInt(start), Number.MAX_SAFE_INTEGER),
        'varchar(x)',
      ),
      padded(
        [CHAR_X, BIGINT, BIGINT],
        varcharOfCharLength,
        (s: string, start: bigint, length: bigint) => substr(s, clampToInt(start), clampToInt(length)),
        'varchar(x)',
      ),
    ],
  },
  {
    names: ['reverse'],
    description: 'Reverses the given string',
    signatures: [
      padded(
        [CHAR_X],
        (types) => types[0],
        (s: string) => trimTrailingSpaces(reverseCodePoints(s)),
      ),
    ],
  },
  { names: ['lpad'], description: 'Pads a string on the left', signatures: [padded([CHAR_X, BIGINT, VARCHAR_X], VARCHAR, lpad)] },
  { names: ['to_utf8'], description: 'Encodes the string to UTF-8', signatures: [padded([CHAR_X], VARBINARY, toUtf8)] },
  { names: ['concat'], description: 'Concatenates given strings', signatures: [CHAR_CONCAT] },
  { names: ['trim'], description: 'Removes whitespace from the beginning and end of a string', signatures: [trimWithCharSet(true, true)] },
  { names: ['ltrim'], description: 'Removes whitespace from the beginning of a string', signatures: [trimWithCharSet(true, false)] },
  { names: ['rtrim'], description: 'Removes whitespace from the end of a string', signatures: [trimWithCharSet(false, true)] },
];

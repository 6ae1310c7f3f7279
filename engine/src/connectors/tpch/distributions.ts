// The generator's distributions, built once.

import * as data from './distribution-data.js';
import { Distribution } from './distribution.js';

export const NATIONS = new Distribution(data.NATIONS);
export const REGIONS = new Distribution(data.REGIONS);
export const PART_TYPES = new Distribution(data.PART_TYPES);
export const PART_CONTAINERS = new Distribution(data.PART_CONTAINERS);
export const PART_COLORS = new Distribution(data.PART_COLORS);
export const MARKET_SEGMENTS = new Distribution(data.MARKET_SEGMENTS);
export const ORDER_PRIORITIES = new Distribution(data.ORDER_PRIORITIES);
export const RETURN_FLAGS = new Distribution(data.RETURN_FLAGS);
export const SHIP_INSTRUCTIONS = new Distribution(data.SHIP_INSTRUCTIONS);
export const SHIP_MODES = new Distribution(data.SHIP_MODES);

/** The text grammar's distributions. */
export const GRAMMAR = new Distribution(data.GRAMMAR);
export const NOUN_PHRASES = new Distribution(data.NOUN_PHRASES);
export const VERB_PHRASES = new Distribution(data.VERB_PHRASES);
export const NOUNS = new Distribution(data.NOUNS);
export const VERBS = new Distribution(data.VERBS);
export const ADJECTIVES = new Distribution(data.ADJECTIVES);
export const ADVERBS = new Distribution(data.ADVERBS);
export const ARTICLES = new Distribution(data.ARTICLES);
export const PREPOSITIONS = new Distribution(data.PREPOSITIONS);
export const AUXILIARIES = new Distribution(data.AUXILIARIES);
export const TERMINATORS = new Distribution(data.TERMINATORS);

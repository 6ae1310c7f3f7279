// Dates of the generated data, as days since 1970-01-01. dbgen draws dates as day offsets from
// STARTDATE (1992-01-01); an item has shipped / been returned when its date is on or before
// CURRENTDATE (1995-06-17).

/** 1992-01-01. */
export const START_DATE = 8035;
/** 1995-06-17. */
export const CURRENT_DATE = 9298;
/** Days from 1992-01-01 through 1998-12-31. */
export const TOTAL_DATE_RANGE = 2557;

// A dictionary form's choices and defaults without zod: the form's page imports these, and loads the
// schema module (app/schemas/dictionary.ts) only after hydration (decision 032).

/** Engine input formats a dictionary file can be read as. */
export const DICTIONARY_FORMATS = [
  'CSVWithNames',
  'CSV',
  'TSVWithNames',
  'TabSeparated',
  'JSONEachRow',
  'Parquet',
] as const

/** The cluster's dictionary layouts (cluster-api.md 5). */
export const DICTIONARY_LAYOUTS = [
  'flat',
  'hashed',
  'sparse_hashed',
  'complex_key_hashed',
  'complex_key_sparse_hashed',
  'range_hashed',
  'complex_key_range_hashed',
  'cache',
  'complex_key_cache',
  'direct',
  'complex_key_direct',
  'ip_trie',
] as const

/** Spec section 9: 5 seconds recommended. */
export const DEFAULT_LIFETIME_SECONDS = 5

// Upload limits without zod: upload forms import these and load app/schemas/file.ts only after
// hydration (decision 032).

/** The largest upload the console passes on (the local cluster takes up to 512 MB). */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024

/** The formats a dictionary file may be in, by extension; the `accept` list of the file input. */
export const FILE_EXTENSIONS = ['.csv', '.tsv', '.tab', '.txt', '.json', '.jsonl', '.ndjson', '.parquet'] as const

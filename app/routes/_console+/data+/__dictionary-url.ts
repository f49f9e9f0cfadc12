/** The edit page of a dictionary (spec: /data/dictionaries/[projectId]/[dictionaryId]/edit-dictionary). */
export function dictionaryUrl(projectId: string, dictionaryId: string): string {
  return `/data/dictionaries/${encodeURIComponent(projectId)}/${encodeURIComponent(dictionaryId)}/edit-dictionary`
}

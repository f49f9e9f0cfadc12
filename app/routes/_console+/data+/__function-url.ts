/** The edit page of a function (spec: /data/functions/[projectId]/[functionId]/edit-function). */
export function functionUrl(projectId: string, functionId: string): string {
  return `/data/functions/${encodeURIComponent(projectId)}/${encodeURIComponent(functionId)}/edit-function`
}

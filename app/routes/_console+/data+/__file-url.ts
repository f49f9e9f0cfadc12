import { withBase } from '~/utils/base-path'

/** The page of a dictionary file (spec: /data/files/[projectId]/[name]/update-file). */
export function fileUrl(projectId: string, name: string): string {
  return `/data/files/${encodeURIComponent(projectId)}/${encodeURIComponent(name)}/update-file`
}

/** Where a file's bytes download from, for a plain `<a href>` (a resource route: the token stays on the server). */
export function fileDownloadUrl(projectId: string, name: string): string {
  return withBase(`/resources/dictionary-file/${encodeURIComponent(projectId)}/${encodeURIComponent(name)}`)
}

/** The resource route the upload forms send to by XHR, with scripts, for the progress bar. */
export const FILE_UPLOAD_URL = '/resources/dictionary-file-upload'

/** The resource route the new dictionary form sends to by XHR when it carries an upload (issue 35). */
export const DICTIONARY_CREATE_URL = '/resources/dictionary-create'

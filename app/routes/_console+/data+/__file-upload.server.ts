import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import {
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { listDictionaryFiles, uploadDictionaryFile } from '~/api/dictionary-files.server'
import { replyFromCluster } from '~/api/policies.server'
import {
  FILE_MESSAGES,
  FILE_NAME_PATTERN,
  formatProblem,
  MAX_UPLOAD_BYTES,
  NewFileFormSchema,
  ReplaceFileFormSchema,
} from '~/schemas/file'
import { fileUrl } from './__file-url'

/** The upload form's HTML constraints (new file, or `replace`): its schema loads in the browser after hydration (decision 077). */
export function fileFormConstraint(replace = false) {
  return getZodConstraint(replace ? ReplaceFileFormSchema : NewFileFormSchema)
}

/** How much of an upload's start is kept to check its format. */
const HEAD_BYTES = 64 * 1024

/** The upload failure message (spec section 8), said when the bytes could not be read at all. */
export const UPLOAD_FAILURE = 'Error while file uploading'

export const TOO_BIG_MESSAGE = `The file is too big: at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`

type Spooled = {
  path: string
  filename: string
  /** The type the browser gave the file part ("" when none). */
  contentType: string
  size: number
  head: Uint8Array
  isTooBig: boolean
}

/** A part type that says nothing of the bytes (what a client sends when it names none). */
const UNNAMED_TYPES = ['', 'application/octet-stream']

/**
 * Reads a multipart request with the file part streamed to a temporary file (never whole in
 * memory), stopping to write past MAX_UPLOAD_BYTES but still reading the body so the browser gets
 * the answer. The form's `file` (`fieldName`) value becomes the upload's name. Returns the form, the spooled
 * file, and `cleanup` (removes the temporary directory); a non-multipart request is read as usual.
 */
export async function readMultipart(
  request: Request,
  /** The file input's name. */
  fieldName = 'file',
): Promise<{ formData: FormData; upload: Spooled | null; cleanup: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-upload-'))
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true })
  let upload: Spooled | null = null
  if (!(request.headers.get('content-type') ?? '').includes('multipart/form-data')) {
    return { formData: await request.formData(), upload, cleanup }
  }
  const spool: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (name !== fieldName || filename === undefined) return undefined
    if (!filename) {
      for await (const _chunk of data) void _chunk
      return undefined
    }
    const target = path.join(dir, 'upload')
    const out = fs.createWriteStream(target)
    const head: Uint8Array[] = []
    let headSize = 0
    let size = 0
    let isTooBig = false
    for await (const chunk of data) {
      size += chunk.length
      if (headSize < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headSize))
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize)
      }
      if (size > MAX_UPLOAD_BYTES) isTooBig = true
      if (!isTooBig && !out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
    upload = {
      path: target,
      filename: path.basename(filename),
      contentType: contentType ?? '',
      size,
      head: Buffer.concat(head),
      isTooBig,
    }
    return upload.filename
  }
  try {
    const formData = await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(spool, unstable_createMemoryUploadHandler({ maxPartSize: 64 * 1024 })),
    )
    return { formData, upload, cleanup }
  } catch (error) {
    cleanup()
    throw error
  }
}

/** The stored file's listing (type, size, times where the cluster gives them); undefined when not listed. */
async function storedFile(api: ClusterApi, projectId: string, name: string) {
  return (await listDictionaryFiles(api, projectId)).find((file) => file.name === name)
}

export type UploadOutcome =
  | { status: 'success'; redirectTo: string; toast: string }
  /** `httpStatus`: the answer's status (400 when absent; the cluster's for a failure that is not the form's) */
  | { status: 'error'; result: SubmissionResult<string[]>; httpStatus?: number }

/**
 * The new-file and update-file action, shared by the pages (post/redirect/get without scripts) and
 * the upload resource route (the same form sent by XHR with a progress bar). With `replace` the
 * project and name come from the URL. Checks the project, the name, the size and that the bytes
 * match the format the name declares, then streams the file to the cluster. Returns where to go
 * and the toast, or the form's reply (everything typed but the file kept; a cluster failure that is
 * not a 400 too, with its status). Throws what is not a ClusterError.
 */
export async function uploadFileAction(
  api: ClusterApi,
  request: Request,
  replace?: { projectId: string; name: string },
): Promise<UploadOutcome> {
  let read: Awaited<ReturnType<typeof readMultipart>>
  try {
    read = await readMultipart(request)
  } catch {
    const submission = parseWithZod(new FormData(), { schema: replace ? ReplaceFileFormSchema : NewFileFormSchema })
    return { status: 'error', result: submission.reply({ formErrors: [UPLOAD_FAILURE] }) }
  }
  try {
    const submission = parseWithZod(read.formData, { schema: replace ? ReplaceFileFormSchema : NewFileFormSchema })
    const reply = (fieldErrors: Record<string, string[]>, formErrors: string[] = []) =>
      ({ status: 'error', result: submission.reply({ fieldErrors, formErrors }) }) as const
    if (submission.status !== 'success') return { status: 'error', result: submission.reply() }
    const { upload } = read
    if (!upload) return reply({ file: [FILE_MESSAGES.fileRequired] })
    const value = submission.value as { project?: string; name?: string }
    const projectId = replace?.projectId ?? value.project!
    const name = replace?.name ?? (value.name || upload.filename)
    if (!replace && !value.name && !FILE_NAME_PATTERN.test(name)) return reply({ name: [FILE_MESSAGES.nameCharacters] })
    if (upload.isTooBig) return reply({ file: [TOO_BIG_MESSAGE] })
    const problem = formatProblem(name, upload.head)
    if (problem) return reply({ file: [problem] })
    try {
      // the file's type as the browser named it; a replacement that names none keeps the stored one
      // (decision 073: an unchanged update leaves the file's metadata as it was)
      let type = UNNAMED_TYPES.includes(upload.contentType) ? '' : upload.contentType
      if (replace && !type) type = (await storedFile(api, projectId, name))?.content_type ?? ''
      const blob = await fs.openAsBlob(upload.path, { type })
      await uploadDictionaryFile(api, projectId, name, blob, { replace: Boolean(replace) })
    } catch (error) {
      // a 400 on the fields, any other failure at the top of the form: what was typed is kept either way
      const answer = replyFromCluster(submission, error, { rename: { name: replace ? '' : 'name', file: 'file' } })
      return { status: 'error', result: answer.data.result, httpStatus: answer.init?.status ?? 400 }
    }
    return {
      status: 'success',
      redirectTo: fileUrl(projectId, name),
      toast: `File ${name} ${replace ? 'replaced' : 'uploaded'} (${upload.size.toLocaleString('en-US')} bytes)`,
    }
  } finally {
    read.cleanup()
  }
}

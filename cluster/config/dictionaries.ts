import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ClusterRouter, ClusterState, Ctx } from '../context'
import { badRequest, HttpError, json, listResponse, noContent, notFound, nowIso, validationError } from '../http'
import { authorize } from './access'
import { audit } from './audit'
import { asResource, defineResource, resolveParents, type Item, type ResourceApi } from './crud'
import { COLUMN_TYPES } from './transforms'
import { descriptionField, f, nameField } from './schema'

/** Dictionaries, their files (multipart upload, bytes under `${dataDir}/files/{project}/{name}`) and functions. */

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
]

const FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/
const MAX_FILE_BYTES = 512 * 1024 * 1024

export function filePath(cluster: ClusterState, projectId: string, name: string): string {
  return path.join(cluster.options.dataDir, 'files', projectId, name)
}

function writeDurably(file: string, bytes: Uint8Array) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  const fd = fs.openSync(tmp, 'w')
  try {
    fs.writeSync(fd, bytes)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(tmp, file)
}

async function readUpload(
  ctx: Ctx,
  fixedName?: string,
): Promise<{ name: string; bytes: Uint8Array; contentType: string }> {
  const type = ctx.request.headers.get('content-type') ?? ''
  if (!type.includes('multipart/form-data'))
    throw validationError({ file: ['Send the file as multipart/form-data (fields "file" and "name").'] })
  let form: FormData
  try {
    form = await ctx.request.formData()
  } catch {
    throw badRequest('Multipart form parse error.')
  }
  const file = form.get('file')
  if (!file || typeof file === 'string') throw validationError({ file: ['No file was submitted.'] })
  const given = form.get('name')
  const name = fixedName ?? (typeof given === 'string' && given.trim() ? given.trim() : (file as File).name)
  if (!name || !FILE_NAME.test(name) || name.length > 255) {
    throw validationError({
      name: ['File names may contain letters, digits, dots, dashes and underscores, and cannot start with a dot.'],
    })
  }
  if (file.size > MAX_FILE_BYTES) throw validationError({ file: [`The file is larger than ${MAX_FILE_BYTES} bytes.`] })
  return { name, bytes: new Uint8Array(await file.arrayBuffer()), contentType: file.type || 'application/octet-stream' }
}

function registerFiles(router: ClusterRouter) {
  const base = '/config/v1/orgs/:org/projects/:project/dictionaries/files'
  const scope = (project: Item) => ({ projectId: project.uuid })
  const publicFile = (f: Item) => ({
    name: f.name,
    size: f.size,
    content_type: f.content_type,
    project: f._project,
    created: f.created,
    modified: f.modified,
  })
  const find = (cluster: ClusterState, project: Item, name: string) =>
    cluster.store.find<Item>('dictionaryfile', (x) => x._project === project.uuid && x.name === name)

  router.get(base, (ctx) => {
    const { project } = resolveParents(ctx, 'project')
    authorize(ctx, 'view_dictionaryfile', scope(project!))
    const files = ctx.cluster.store.filter<Item>('dictionaryfile', (x) => x._project === project!.uuid)
    const detail = ctx.url.searchParams.get('detail')
    return listResponse<unknown>(ctx.request, detail ? files.map(publicFile) : files.map((x) => x.name), {
      bareArrays: ctx.cluster.options.bareArrays,
    })
  })

  const save = async (ctx: Ctx, replace: boolean) => {
    const { project, org } = resolveParents(ctx, 'project')
    const existingName = replace ? ctx.params.name : undefined
    const previous = existingName ? find(ctx.cluster, project!, existingName) : undefined
    if (replace && !previous) throw notFound('File not found.')
    const user = authorize(ctx, replace ? 'change_dictionaryfile' : 'add_dictionaryfile', scope(project!))
    const upload = await readUpload(ctx, existingName)
    const clash = find(ctx.cluster, project!, upload.name)
    if (!replace && clash)
      throw validationError({ name: [`A file named "${upload.name}" already exists in this project.`] })
    writeDurably(filePath(ctx.cluster, project!.uuid, upload.name), upload.bytes)
    const now = nowIso()
    const record: Item = {
      uuid: previous?.uuid ?? crypto.randomUUID(),
      name: upload.name,
      size: upload.bytes.length,
      content_type: upload.contentType,
      created: previous?.created ?? now,
      modified: now,
      _org: org.uuid,
      _project: project!.uuid,
    }
    ctx.cluster.store.put('dictionaryfile', record.uuid, record)
    // dictionaries reading this file load the new contents
    for (const dictionary of ctx.cluster.store.filter<Item>(
      'dictionary',
      (d) => d._project === project!.uuid && d.settings?.filename === upload.name,
    )) {
      await ctx.cluster.data.hooks.dictionarySaved({
        project: asResource(project!),
        dictionary: asResource(dictionary),
      })
    }
    audit(
      ctx.cluster,
      user,
      replace ? 'change_dictionaryfile' : 'add_dictionaryfile',
      `${replace ? 'Replaced' : 'Uploaded'} file "${upload.name}" (${upload.bytes.length} bytes) in project "${project!.name}"`,
      {
        kind: 'dictionaryfile',
        id: record.uuid,
        project: project!.uuid,
      },
    )
    return json(publicFile(record), replace ? 200 : 201)
  }
  router.post(base, (ctx) => save(ctx, false))
  router.put(`${base}/:name`, (ctx) => save(ctx, true))

  router.get(`${base}/:name`, (ctx) => {
    const { project } = resolveParents(ctx, 'project')
    authorize(ctx, 'view_dictionaryfile', scope(project!))
    const record = find(ctx.cluster, project!, ctx.params.name)
    if (!record) throw notFound('File not found.')
    const bytes = fs.readFileSync(filePath(ctx.cluster, project!.uuid, record.name))
    return new Response(bytes, {
      headers: {
        'content-type': record.content_type ?? 'application/octet-stream',
        'content-disposition': `attachment; filename="${record.name}"`,
      },
    })
  })

  router.delete(`${base}/:name`, (ctx) => {
    const { project } = resolveParents(ctx, 'project')
    const user = authorize(ctx, 'delete_dictionaryfile', scope(project!))
    const record = find(ctx.cluster, project!, ctx.params.name)
    if (!record) throw notFound('File not found.')
    const users = ctx.cluster.store.filter<Item>(
      'dictionary',
      (d) => d._project === project!.uuid && d.settings?.filename === record.name,
    )
    if (users.length)
      throw new HttpError(400, {
        detail: `The file is used by dictionary ${users.map((d) => `"${d.name}"`).join(', ')}; delete the dictionary first.`,
      })
    ctx.cluster.store.delete('dictionaryfile', record.uuid)
    fs.rmSync(filePath(ctx.cluster, project!.uuid, record.name), { force: true })
    audit(ctx.cluster, user, 'delete_dictionaryfile', `Deleted file "${record.name}" in project "${project!.name}"`, {
      kind: 'dictionaryfile',
      id: record.uuid,
      project: project!.uuid,
    })
    return noContent()
  })
}

export function registerDictionaries(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'dictionary',
    resource: 'dictionary',
    label: 'dictionary',
    level: 'project',
    path: 'dictionaries',
    description: 'Dictionaries load a file of the project; query them as {project}_{name}.',
    fields: {
      name: nameField(63, {
        pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
        patternMessage: 'The name must start with a letter and contain only letters, digits and underscores.',
      }),
      description: descriptionField(),
      settings: f.obj(
        {
          filename: f.str({ required: true, blank: false }),
          format: f.str({ required: true, blank: false, help: 'An engine input format, e.g. CSVWithNames' }),
          layout: f.str({ required: true, choices: DICTIONARY_LAYOUTS }),
          lifetime_seconds: f.int({ min: 0, help: '5 seconds recommended' }),
          primary_key: f.list(f.str({ blank: false }), { required: true, minItems: 1 }),
          output_columns: f.list(
            f.obj({
              name: f.str({ required: true, blank: false }),
              datatype: f.obj({ type: f.str({ required: true, choices: COLUMN_TYPES }) }, { required: true }),
            }),
            { required: true, minItems: 1 },
          ),
          load_level: f.str({ nullable: true, blank: true }),
        },
        { required: true },
      ),
    },
    settingsDefaults: () => ({ lifetime_seconds: 5, format: 'CSVWithNames' }),
    routes: registerFiles,
    prepare({ ctx, data, parents, errors }) {
      const s = data.settings as { filename: string; primary_key: string[]; output_columns: { name: string }[] }
      const e: Record<string, unknown> = {}
      if (
        !ctx.cluster.store.find<Item>(
          'dictionaryfile',
          (x) => x._project === parents.project!.uuid && x.name === s.filename,
        )
      ) {
        e.filename = [`File "${s.filename}" does not exist in project "${parents.project!.name}"; upload it first.`]
      }
      const names = new Set(s.output_columns.map((c) => c.name))
      const missing = s.primary_key.filter((k) => !names.has(k))
      if (missing.length) e.primary_key = [`Primary key columns must be output columns: ${missing.join(', ')}.`]
      if (Object.keys(e).length) errors.settings = e
    },
    async afterSave({ ctx, item, previous, parents }) {
      await ctx.cluster.data.hooks.dictionarySaved({
        project: asResource(parents.project!),
        dictionary: asResource(item),
        previousName: previous && previous.name !== item.name ? previous.name : undefined,
      })
    },
    async beforeDelete({ ctx, item, parents }) {
      await ctx.cluster.data.hooks.dictionaryDeleted({
        project: asResource(parents.project!),
        dictionary: asResource(item),
      })
    },
  })
}

export function registerFunctions(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'function',
    resource: 'function',
    label: 'function',
    level: 'project',
    path: 'functions',
    description: 'SQL functions: a lambda such as (x, k, b) -> k*x + b.',
    idInSettings: true,
    fields: {
      name: nameField(63, {
        pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
        patternMessage: 'The name must start with a letter and contain only letters, digits and underscores.',
      }),
      description: descriptionField(),
      sql: f.str({ required: true, blank: false, label: 'SQL expression' }),
    },
    async afterSave({ ctx, item, previous, parents }) {
      await ctx.cluster.data.hooks.functionSaved({
        project: asResource(parents.project!),
        fn: asResource(item),
        previousName: previous && previous.name !== item.name ? previous.name : undefined,
      })
    },
    async beforeDelete({ ctx, item, parents }) {
      await ctx.cluster.data.hooks.functionDeleted({ project: asResource(parents.project!), fn: asResource(item) })
    },
  })
}

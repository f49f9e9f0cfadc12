import type { ClusterRouter } from '../context'
import { defineResource, type Item, type ResourceApi } from './crud'
import { createSourcePool, k8sFields } from './pools'
import { descriptionField, f, type Errors, type Fields } from './schema'

/**
 * Ingest sources: `tables/{t}/sources/{kafka|kinesis|siem|summary}/`. Stored with their pool;
 * on one machine they pull nothing.
 */

interface SourceKind {
  subtype: string
  service: string
  settings: Fields
  /** Cross-field checks on the validated settings. */
  check?: (settings: Record<string, unknown>) => Errors | undefined
  needsTransform: boolean
}

const hostPort = f.str({
  blank: false,
  pattern: /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)?[^\s:/]+:\d+$/,
  patternMessage: 'Use host:port.',
})

const KINDS: SourceKind[] = [
  {
    subtype: 'kafka',
    service: 'kafka-peer',
    needsTransform: true,
    settings: {
      bootstrap_servers: f.list(hostPort, { required: true, minItems: 1 }),
      topics: f.list(f.str({ blank: false }), { required: true, minItems: 1 }),
      // earliest or latest from the console; a real cluster also holds what other clients stored
      // (librdkafka's smallest/largest, a number), and keeps it
      offset: f.json({
        check: ((value: unknown) =>
          typeof value === 'string' || Number.isSafeInteger(value)
            ? undefined
            : 'Use earliest, latest or an offset number.') as never,
      }),
      read_timeout: f.int({ min: 0, help: 'seconds' }),
      max_wait: f.int({ min: 0, help: 'milliseconds' }),
      credential_id: f.uuid({ nullable: true }),
      tls: f.json({ nullable: true }),
    },
  },
  {
    subtype: 'kinesis',
    service: 'kinesis-peer',
    needsTransform: true,
    settings: {
      stream_name: f.str({ required: true, blank: false }),
      region: f.str({ required: true, blank: false }),
      checkpointer: f.obj({ name: f.str({ required: true, blank: false }) }, { required: true }),
      datastore_project_id: f.str({ nullable: true, blank: true }),
      access_key_id: f.str({ nullable: true, blank: true }),
      secret_access_key: f.str({ nullable: true, blank: true }),
      role_arn: f.str({ nullable: true, blank: true }),
      credential_id: f.uuid({ nullable: true }),
    },
    check(s) {
      const key = !!s.access_key_id
      const secret = !!s.secret_access_key
      if (key && !secret) return { secret_access_key: ['Required when the access key is given.'] }
      if (secret && !key) return { access_key_id: ['Required when the secret is given.'] }
      return undefined
    },
  },
  {
    subtype: 'siem',
    service: 'akamai-siem-peer',
    needsTransform: true,
    settings: {
      access_details: f.obj(
        {
          host: f.str({ required: true, blank: false }),
          entity_id: f.str({ required: true, blank: false, label: 'Web security configuration ID' }),
          client_secret: f.str({ required: true, blank: false }),
          client_token: f.str({ required: true, blank: false }),
          access_token: f.str({ required: true, blank: false }),
        },
        { required: true },
      ),
    },
  },
  {
    subtype: 'summary',
    service: 'summary-peer',
    needsTransform: false,
    settings: { sql: f.str({ nullable: true, blank: true }) },
  },
]

export function registerSources(router: ClusterRouter): ResourceApi[] {
  return KINDS.map((kind) =>
    defineResource(router, {
      kind: `${kind.subtype}source`,
      resource: `${kind.subtype}source`,
      label: `${kind.subtype} source`,
      level: 'table',
      path: `sources/${kind.subtype}`,
      nameMax: 27,
      fkField: null,
      description: `${kind.subtype} ingest sources (stored; a local cluster pulls nothing).`,
      fields: {
        description: descriptionField(),
        type: f.str({ choices: ['pull'] }),
        subtype: f.str({ readOnly: true }),
        transform: f.str({
          required: kind.needsTransform,
          blank: !kind.needsTransform,
          nullable: !kind.needsTransform,
          help: 'Name of a transform of the table',
        }),
        table: f.str({ readOnly: true, help: 'project.table' }),
        settings: f.obj(kind.settings, { required: kind.subtype !== 'summary' }),
        k8s_deployment: f.obj({ ...k8sFields([kind.service]), service: f.str({ choices: [kind.service] }) }),
        pool_name: f.str({ readOnly: true }),
      },
      prepare({ ctx, data, parents, errors }) {
        data.type = 'pull'
        data.subtype = kind.subtype
        data.settings ??= {}
        if (data.transform) {
          const exists = ctx.cluster.store.find<Item>(
            'transform',
            (t) => t._table === parents.table!.uuid && t.name === data.transform,
          )
          if (!exists)
            errors.transform = [
              `Transform "${data.transform}" does not exist on table ${parents.project!.name}.${parents.table!.name}.`,
            ]
        }
        const settingErrors = kind.check?.(data.settings as Record<string, unknown>)
        if (settingErrors) errors.settings = settingErrors
        const k8s = (data.k8s_deployment ?? {}) as Record<string, unknown>
        data.k8s_deployment = { replicas: 1, cpu: 1, ...k8s, service: kind.service }
      },
      serialize(item, ctx) {
        const project = ctx.cluster.store.get<Item>('project', item._project!)
        const table = ctx.cluster.store.get<Item>('table', item._table!)
        return { table: `${project?.name}.${table?.name}`, table_id: item._table, project_id: item._project }
      },
      serializeReads: ['project', 'table'],
      afterSave({ ctx, item, previous }) {
        if (previous) return
        const pool = createSourcePool(ctx.cluster, item, kind.service)
        ctx.cluster.store.put(`${kind.subtype}source`, item.uuid, { ...item, pool_name: pool.name })
      },
      afterDelete({ ctx, item }) {
        for (const pool of ctx.cluster.store.filter<Item>('pool', (p) => p._source === item.uuid))
          ctx.cluster.store.delete('pool', pool.uuid)
      },
    }),
  )
}

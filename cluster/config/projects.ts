import fs from 'node:fs'
import path from 'node:path'
import type { ClusterRouter, Ctx } from '../context'
import { json, listResponse } from '../http'
import { authorize } from './access'
import type { AuditEntry } from './audit'
import { asResource, defineResource, type Item, type ResourceApi } from './crud'
import { projectDefaults, queryOptionsField } from './defaults'
import { descriptionField, f, IDENTIFIER_NAME } from './schema'

/** Projects: `orgs/{org}/projects/` with activity and stats. */

export const projectSettingsFields = {
  default_query_options: queryOptionsField(),
  blob: f.json({ nullable: true }),
  rate_limit: f.json({ nullable: true }),
}

export function registerProjects(router: ClusterRouter): ResourceApi {
  return defineResource(router, {
    kind: 'project',
    resource: 'project',
    label: 'project',
    level: 'org',
    path: 'projects',
    itemParam: 'project',
    namePattern: IDENTIFIER_NAME,
    description: 'Projects group tables, dictionaries and functions.',
    fields: {
      description: descriptionField(),
      settings: f.obj(projectSettingsFields),
    },
    settingsDefaults: () => projectDefaults(),
    routes(router, api) {
      router.get(`${api.itemPattern}/activity`, (ctx) => {
        const { item, parents } = api.load(ctx)
        authorize(ctx, 'activity_project', api.scopeOf(item, parents))
        return activity(ctx, (e) => e.project === item.uuid)
      })
      router.get(`${api.itemPattern}/stats`, async (ctx) => {
        const { item, parents } = api.load(ctx)
        authorize(ctx, 'stats_project', api.scopeOf(item, parents))
        const tables = ctx.cluster.store.filter<Item>('table', (t) => t._project === item.uuid)
        const totals: Record<string, number> = {}
        for (const table of tables) {
          const figures = await ctx.cluster.data.hooks.tableStats({
            project: asResource(item),
            table: asResource(table),
          })
          for (const [k, v] of Object.entries(figures))
            if (typeof v === 'number' && !/ratio|timestamp|latency/.test(k)) totals[k] = (totals[k] ?? 0) + v
        }
        return json({ project: item.uuid, name: item.name, tables: tables.length, ...totals })
      })
    },
    async afterSave({ ctx, item, previous }) {
      if (previous && previous.name !== item.name) {
        await ctx.cluster.data.hooks.projectRenamed({ project: asResource(item), previousName: previous.name })
      }
    },
    async beforeDelete({ ctx, item }) {
      await ctx.cluster.data.hooks.projectDeleted({ project: asResource(item) })
    },
    afterDelete({ ctx, item }) {
      // the project's dictionary files (their records went with the cascade)
      fs.rmSync(path.join(ctx.cluster.options.dataDir, 'files', item.uuid), { recursive: true, force: true })
    },
  })
}

const ACTIVITY_VERBS: Record<string, string> = { add: 'create', change: 'update' }

/**
 * An audit action (`add_project`, permission-style) as a real cluster's activity names it:
 * `create:project`, `update:table`, `delete:transform`, `truncate:table` (hdxcli's activity output).
 */
export function activityAction(action: string): string {
  const m = /^([a-z]+)_(.+)$/.exec(action)
  return m ? `${ACTIVITY_VERBS[m[1]] ?? m[1]}:${m[2]}` : action
}

/**
 * A resource's change history from the audit trail, newest first: `{uuid, created, user, action,
 * name, description, text}`, the name and description being the changed object's as the change left
 * them (as a real cluster's entries hold them; issue 50). An entry written before they were kept
 * answers the object's current ones, or null when it is gone.
 */
export function activity(ctx: Ctx, match: (e: AuditEntry) => boolean) {
  const { store } = ctx.cluster
  const now = (e: AuditEntry) => {
    const item = e.target_kind && e.target_id ? store.peek<Item>(e.target_kind, e.target_id) : undefined
    return { name: item?.name ?? null, description: item?.description ?? null }
  }
  const entries = store
    .filter<AuditEntry>('audit', match)
    .reverse()
    .map((e) => {
      const object = e.object ?? now(e)
      return {
        uuid: e.uuid,
        created: e.created,
        user: e.user,
        action: activityAction(e.action),
        name: object.name ?? null,
        description: object.description ?? null,
        text: e.text,
      }
    })
  return listResponse(ctx.request, entries, { bareArrays: ctx.cluster.options.bareArrays })
}

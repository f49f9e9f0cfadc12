import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireApi } from '~/api/client.server'
import { answerFromCluster } from '~/api/policies.server'
import { listProjectsBriefly } from '~/api/table-search.server'
import { loadProjectSchema, loadSchemaTree, loadTableColumns } from '~/services/query/schema.server'

/**
 * GET /resources/query-schema?project=<uuid>[&table=<uuid>]: one part of the editor's schema tree as
 * JSON, read when it is opened (with scripts; issue 33): a project's first tables, functions and
 * dictionaries, or with `table` that table's columns. 404 when the project is not the org's.
 * Without `project`: the tree's top (the org's projects), for the SQL fields' suggestions (decision 076).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const projectId = url.searchParams.get('project') ?? ''
  const tableId = url.searchParams.get('table')
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' }
  return answerFromCluster(
    async () => {
      if (!projectId) {
        const tree = await loadSchemaTree(api)
        if (!tree)
          return new Response(JSON.stringify({ message: 'The projects could not be read' }), { status: 502, headers })
        return new Response(JSON.stringify(tree), { headers })
      }
      const project = (await listProjectsBriefly(api)).find((entry) => entry.uuid === projectId)
      if (!project) return new Response(JSON.stringify({ message: 'No such project' }), { status: 404, headers })
      const body = tableId
        ? { columns: await loadTableColumns(api, project.uuid, tableId) }
        : await loadProjectSchema(api, project)
      return new Response(JSON.stringify(body), { headers })
    },
    (error) => new Response(JSON.stringify({ message: error.message }), { status: error.status, headers }),
  )
}

import type { Params } from '@remix-run/react'
import type { CrumbNames } from './breadcrumb'
import type { DocsTopic } from './docs'

/**
 * What a console route may export as `handle`:
 * - `docsTopic` picks the header's contextual Docs and API links (a topic, or one picked from the
 *   route's params and loader data, e.g. a source's type);
 * - `breadcrumb(data, params)` names the id crumbs of its path, e.g. `(data) => ({ tableId: data.table.name })`
 *   (keys are the spec's param names: tableId, poolId, transformId, sourceId, bucketId, credentialId, …).
 */
export type RouteHandle = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's own loader data
  docsTopic?: DocsTopic | ((params: Params, data: any) => DocsTopic)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  breadcrumb?: (data: any, params: Params) => CrumbNames
}

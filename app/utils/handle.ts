import type { Params } from '@remix-run/react'
import type { CrumbNames } from './breadcrumb'
import type { DocsTopic } from './docs'

/**
 * What a console route may export as `handle`:
 * - `docsTopic` picks the header's contextual Docs and API links;
 * - `breadcrumb(data, params)` names the id crumbs of its path, e.g. `(data) => ({ tableId: data.table.name })`
 *   (keys are the spec's param names: tableId, poolId, transformId, sourceId, bucketId, credentialId, …).
 */
export type RouteHandle = {
  docsTopic?: DocsTopic
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  breadcrumb?: (data: any, params: Params) => CrumbNames
}

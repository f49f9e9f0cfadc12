import { Stack } from '~/components/ui/stack'
import { useActionData, useLoaderData, useLocation, useMatches, type Location } from '@remix-run/react'
import { Fragment, type ComponentProps, type ReactNode } from 'react'
import type { PickerSearch } from '~/components/forms/table-search-field'
import { QueryEditorForm, TablePicker } from './__query-editor'
import { QueryTabs } from './__query-tabs'

/** What one of the two workspace routes shows around the shared editor. */
export type WorkspaceView = {
  header: ReactNode
  sql: string
  tableId?: string | null
  picker: PickerSearch
  /** Between the table picker and the editor (a saved query's line, its error). */
  notices?: ReactNode
  /** The editor's identity: the same key on both routes keeps it (and Ace) across a run. */
  editorKey: string
  editor: ComponentProps<typeof QueryEditorForm>
  /** Below the editor (the confirm step, the result). */
  after?: ReactNode
}

/** The route's hook results, handed to its view builder (a plain function: no hooks of its own). */
export type WorkspaceInput = { data: unknown; actionData: unknown; location: Location }

export type WorkspaceHandle = { workspaceView?: (input: WorkspaceInput) => WorkspaceView }

/**
 * The Query workspace: the default export of both the editor (/queries) and a run's page (/result).
 * Being the same component at the same place, React keeps the editor, its options, the schema tree
 * and Ace mounted when a run goes from one to the other (and from a run to the next), and renders
 * only what changed: the result. Built again on each route, they cost a run's first rows about as
 * much time as the rows themselves (decision 035). Each route gives what it shows as
 * `handle.workspaceView`, a function of its loader data, action data and location; the hooks here
 * are the same on both routes, so the component's hook order never changes.
 */
export function QueryWorkspaceRoute() {
  const data = useLoaderData()
  const actionData = useActionData()
  const location = useLocation()
  const matches = useMatches()
  const build = (matches[matches.length - 1]?.handle as WorkspaceHandle | undefined)?.workspaceView
  if (!build) throw new Error('A Query workspace route needs handle.workspaceView')
  const view = build({ data, actionData, location })
  return (
    <Stack gap="4">
      <Fragment key="header">{view.header}</Fragment>
      <QueryTabs key="tabs" current="editor" sql={view.sql} tableId={view.tableId} />
      <TablePicker key="picker" picker={view.picker} />
      {view.notices ? <Fragment key="notices">{view.notices}</Fragment> : null}
      <QueryEditorForm key={view.editorKey} {...view.editor} />
      {view.after ? <Fragment key="after">{view.after}</Fragment> : null}
    </Stack>
  )
}

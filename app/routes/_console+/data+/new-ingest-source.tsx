import { whyNotCreate } from '~/api/access.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { TableSearchForm } from '~/components/forms/table-search-field'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { AUTO_BATCH, FORM_KIND_LABELS, FORM_KINDS, isFormKind, isSourceKind } from '~/schemas/source-values'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { AutoBatchEditor } from './__source-autobatch'
import { autoBatchAction, autoBatchConstraint, loadCredentialChoices } from './__source-autobatch.server'
import { SourceEditor } from './__source-editor'
import { loadTransformNames, sourceConstraint, sourceEditorAction } from './__source-editor.server'
import { loadTablePick } from '~/services/table-choices.server'
import { tableUrl } from './__table-url'
import { FormSelect } from '~/components/forms/form-select'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = {
  // the kind picked (`?type=`) has its own guide: kafka, kinesis, auto batch; the chooser, ingest in general
  docsTopic: (_params, data: { kind?: string | null } | undefined) =>
    data?.kind === 'kafka' || data?.kind === 'kinesis' ? data.kind : data?.kind === AUTO_BATCH ? 'autoBatch' : 'source',
}

/** The chosen table: `?table=projectId/tableId`, or `?project=&table=` as the table page links. */
function chosenTable(url: URL): string {
  const table = url.searchParams.get('table') ?? ''
  if (table.includes('/')) return table
  const project = url.searchParams.get('project')
  return project && table ? `${project}/${table}` : ''
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const denied = whyNotCreate(api, '/data/new-ingest-source')
  const wanted = chosenTable(url)
  // the tables a search finds and the one chosen, not every table of the org (issue 33)
  const pickUrl = new URL(url)
  pickUrl.searchParams.set('project', wanted.split('/')[0] ?? '')
  pickUrl.searchParams.set('table', wanted.split('/')[1] ?? '')
  const pick = await loadTablePick(api, pickUrl)
  const tables = pick.tables.map(({ value, label }) => ({ value, label }))
  const table = tables.find((choice) => choice.value === wanted) ?? null
  const type = url.searchParams.get('type')
  const kind = isFormKind(type) ? type : null
  const [transforms, credentials] = await Promise.all([
    table && kind !== AUTO_BATCH ? loadFromCluster(() => loadTransformNames(api, table.value)) : [],
    table && kind === AUTO_BATCH ? loadCredentialChoices(api) : [],
  ])
  return {
    denied: await denied,
    tables,
    search: pick.search,
    table,
    kind,
    transforms,
    credentials,
    // the form's HTML constraints: its schema loads after hydration (decision 077)
    constraint: kind === AUTO_BATCH ? autoBatchConstraint() : kind ? sourceConstraint(kind, false) : {},
    defaultValue: {
      table: table?.value ?? '',
      transform: transforms.length === 1 ? transforms[0] : '',
      replicasMin: '1',
      cpu: '1',
      memory: '10',
      storage: '10',
      offset: 'latest',
    },
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const type = new URL(request.url).searchParams.get('type')
  if (type === AUTO_BATCH) return autoBatchAction(api, await request.formData())
  if (!isSourceKind(type)) throw data({ message: 'Choose the kind of source first' }, { status: 400 })
  return sourceEditorAction(api, type, await request.formData())
}

export default function NewIngestSourceRoute() {
  const { tables, search, table, kind, transforms, credentials, defaultValue, constraint, denied } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [projectId = '', tableId = ''] = (table?.value ?? '').split('/')
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        title="New ingest source"
        description={
          'A source pulls rows from Kafka, Kinesis or a security-event feed into a table through ' +
          'one of its transforms (the cluster creates a pool to run it); auto batch loads the files ' +
          'a queue announces.'
        }
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create ingest sources">
        {/* the table list is what a search finds (issue 33): an org has more tables than a list shows */}
        <TableSearchForm search={search} keep={{ table: table?.value ?? '', type: kind ?? '' }} />
        {/* Step one (a GET form, the same with and without scripts): which table, which kind. */}
        <Box bg="bg" borderWidth="1px" rounded="md" p="4">
          <Form method="get" aria-label="Table and kind">
            <chakra.label htmlFor="source-table" fontSize="sm" fontWeight="medium">
              Table
            </chakra.label>
            <FormSelect id="source-table" name="table" defaultValue={table?.value ?? ''} display="block" mb="3">
              <option value="">Select a table</option>
              {tables.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </FormSelect>
            <chakra.label htmlFor="source-type" fontSize="sm" fontWeight="medium">
              Kind
            </chakra.label>
            <FormSelect id="source-type" name="type" defaultValue={kind ?? ''} display="block" mb="3">
              <option value="">Select a kind</option>
              {FORM_KINDS.map((value) => (
                <option key={value} value={value}>
                  {FORM_KIND_LABELS[value]}
                </option>
              ))}
            </FormSelect>
            <HStack>
              <Button type="submit" size="sm" variant="outline">
                {table && kind ? 'Change' : 'Continue'}
              </Button>
              {!tables.length ? (
                <Text fontSize="sm">
                  There are no tables yet: <Link to="/data/new-table">create one</Link> first.
                </Text>
              ) : null}
            </HStack>
          </Form>
        </Box>
        {table && kind === AUTO_BATCH ? (
          <AutoBatchEditor
            key={table.value}
            table={table.value}
            tableLabel={table.label}
            credentials={credentials}
            defaultValue={{ table: table.value }}
            constraint={constraint}
            lastResult={actionData?.result}
            submitLabel="Create auto batch"
            cancelTo={tableUrl(tableId, projectId)}
          />
        ) : table && kind && isSourceKind(kind) ? (
          transforms.length ? (
            <SourceEditor
              key={`${table.value}-${kind}`}
              kind={kind}
              table={table.value}
              tableLabel={table.label}
              transforms={transforms}
              defaultValue={defaultValue}
              constraint={constraint}
              lastResult={actionData?.result}
              submitLabel={`Create ${FORM_KIND_LABELS[kind]} source`}
              cancelTo={tableUrl(tableId, projectId)}
              isEdit={false}
            />
          ) : (
            <Text>
              The table {table.label} has no transforms: a source needs one.{' '}
              <Link to={`/data/new-transform?project=${projectId}&table=${tableId}`}>Create a transform</Link>.
            </Text>
          )
        ) : null}
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New ingest source · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The source could not be created' })

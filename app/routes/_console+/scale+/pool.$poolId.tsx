import type { ReactNode } from 'react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { whyNotEach } from '~/api/access.server'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { deletePool, getPool } from '~/api/pools.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { GuardedLink } from '~/components/layout/denied'
import { DateTime } from '~/components/layout/date-time'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { KIND_LABELS, KIND_PATHS, kindOfPool } from '~/schemas/pool-values'
import { PoolEditFormSchema } from '~/schemas/pool'
import { formatNumber } from '~/utils/format-number'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { cores, formatSize, rangeText } from './__pool-sizes'
import { PoolEditEditor, UPDATE_INTENT } from './__pool-editor'
import { loadPoolDefaults, poolEditValues, updatePoolAction } from './__pool-editor.server'
import { poolRow, poolTotals } from './__pools.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { FigureList } from '~/components/ui/figure-list'

export const handle: RouteHandle = {
  docsTopic: 'scale',
  breadcrumb: (data: { pool?: { name: string } } | undefined) => ({ poolId: data?.pool?.name }),
}

const DELETE_INTENT = 'delete-pool'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const [pool, defaults, denied] = await Promise.all([
    loadFromCluster(() => getPool(api, params.poolId!)),
    loadPoolDefaults(api),
    whyNotEach(api, { change: 'change_pool', remove: 'delete_pool' }),
  ])
  const row = poolRow(pool)
  const kind = kindOfPool(pool.type, row.service)
  const shards = pool.settings?.k8s_deployment?.shards
  return {
    pool: {
      ...row,
      kind,
      shards: typeof shards === 'number' ? shards : null,
      created: pool.created ?? '',
      modified: pool.modified ?? '',
      // An intake pool has its own address for HTTP stream ingest (cluster-api.md 7).
      ingestPath: row.service === 'intake-head' ? `/pool/${pool.name}/ingest/event` : null,
    },
    totals: poolTotals([row]),
    editValues: poolEditValues(pool),
    defaults,
    constraint: getZodConstraint(PoolEditFormSchema),
    isConfirmingDelete: url.searchParams.get('delete') === pool.uuid,
    denied,
  }
}

/** Saves the pool's sizes (`intent=update-pool`) or deletes it (`intent=delete-pool`), then redirects with a toast. */
export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent !== UPDATE_INTENT && intent !== DELETE_INTENT) throw data({ message: 'Unknown action' }, { status: 400 })
  const pool = await loadFromCluster(() => getPool(api, params.poolId!))
  if (intent === UPDATE_INTENT) return updatePoolAction(api, pool, formData)
  await loadFromCluster(() => deletePool(api, pool.uuid))
  const kind = kindOfPool(pool.type, pool.settings?.k8s_deployment?.service)
  return redirectWithToast(KIND_PATHS[kind], { title: `Pool ${pool.name} deleted`, type: 'success' })
}

export default function PoolRoute() {
  const { pool, totals, editValues, defaults, constraint, isConfirmingDelete, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const listPath = KIND_PATHS[pool.kind]
  const ownPath = `/scale/pool/${pool.uuid}`
  return (
    <Stack gap="6">
      <PageHeader
        level={2}
        eyebrow={`${KIND_LABELS[pool.kind]} pool`}
        title={
          <>
            {pool.name}{' '}
            {pool.isDefault ? (
              <Badge colorPalette="green" verticalAlign="middle">
                default
              </Badge>
            ) : null}
          </>
        }
        description={pool.description || undefined}
        mb="0"
        actions={
          <>
            <Button asChild size="sm" variant="outline">
              <Link to={listPath}>All {pool.kind} pools</Link>
            </Button>
            {isConfirmingDelete ? null : (
              <GuardedLink to={`${ownPath}?delete=${pool.uuid}`} reason={denied.remove} colorPalette="red">
                Delete pool…
              </GuardedLink>
            )}
          </>
        }
      />

      {isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-pool"
          title={`Delete pool ${pool.name}?`}
          intent={DELETE_INTENT}
          confirmLabel="Delete pool"
          deniedReason={denied.remove}
        >
          The pool {pool.name} ({pool.service || 'no service'}, {rangeText(pool.replicas)}{' '}
          {pool.replicas?.max === 1 ? 'replica' : 'replicas'}) will be removed. No stored data is lost; work that ran on
          it goes to the default pool of its service.
          {pool.isDefault ? ' It is the default pool of its service: pick another default first if one is needed.' : ''}
        </ConfirmPanel>
      ) : null}

      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <Panel id="details" title="Details">
          <DetailList
            entries={[
              ['Type', KIND_LABELS[pool.kind]],
              ['Service', <code key="service">{pool.service || '—'}</code>],
              ...(pool.kind === 'ingest'
                ? ([
                    ['Table', pool.table || 'Any (chosen by each request)'],
                    ['Transform', pool.transform || 'The table’s default'],
                  ] as [string, string][])
                : []),
              ...(pool.ingestPath
                ? ([['Ingest address', <code key="ingest">{pool.ingestPath}</code>]] as [string, ReactNode][])
                : []),
              ['Pool ID', <code key="id">{pool.uuid}</code>],
              ['Created', <DateTime key="c" value={pool.created} />],
              ['Modified', <DateTime key="m" value={pool.modified} />],
            ]}
          />
          <Text fontSize="xs" color="fg.muted" mt="3">
            The name, type, service, table and transform are fixed once a pool exists; make a new pool to change them.
          </Text>
        </Panel>
        <Panel id="capacity" title="Capacity">
          <FigureList
            columns={2}
            gap="4"
            figures={[
              ['Replicas', pool.replicas ? rangeText(pool.replicas) : pool.replicasText || '—'],
              ['CPU per replica', pool.cpuText || '—'],
              ['Memory per replica', pool.memoryText || '—'],
              ['Storage per replica', pool.storageText || '—'],
              ['CPU in all', rangeText(totals.cpu, cores) + ' cores'],
              ['Memory in all', rangeText(totals.memory, formatSize)],
              ['Storage in all', rangeText(totals.storage, formatSize)],
              ['Shards', pool.shards === null ? '—' : formatNumber(pool.shards)],
            ]}
          />
        </Panel>
      </SimpleGrid>

      <Box as="section" aria-labelledby="edit-heading">
        <Heading as="h3" id="edit-heading" size="md" mb="2">
          Change the size
        </Heading>
        <PoolEditEditor
          key={pool.modified}
          defaultValue={editValues}
          defaults={defaults}
          constraint={constraint}
          lastResult={actionData?.result}
          cancelTo={listPath}
          deniedReason={denied.change}
        />
      </Box>
    </Stack>
  )
}

/** A card under the pool's h2, named by its h3 (SectionCard's h2 would sit at the page heading's level). */
function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box as="section" aria-labelledby={`${id}-heading`} bg="bg" borderWidth="1px" rounded="md" p="4">
      <Heading as="h3" id={`${id}-heading`} size="md" mb="3">
        {title}
      </Heading>
      {children}
    </Box>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.pool.name ?? 'Pool'} · Scale · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The pool could not be shown',
  level: 2,
  back: { to: '/scale', label: 'Back to the pools' },
})

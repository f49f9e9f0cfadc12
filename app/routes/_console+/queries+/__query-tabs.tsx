import { SectionTabs } from '~/components/layout/section-tabs'

/** The Query section's tabs; the SQL travels along as `data` so switching keeps it (not to Saved, a list of its own). */
export function QueryTabs({
  current,
  sql,
  tableId,
}: {
  current: 'editor' | 'reference' | 'saved' | 'insights'
  sql: string
  tableId?: string | null
}) {
  const search = (extra: Record<string, string>) => {
    const params = new URLSearchParams()
    if (sql) params.set('data', sql)
    if (tableId) params.set('table_id', tableId)
    for (const [key, value] of Object.entries(extra)) params.set(key, value)
    const text = params.toString()
    return text ? `?${text}` : ''
  }
  return (
    <SectionTabs
      label="Query"
      mb="4"
      tabs={[
        { label: 'Editor', to: `/queries${search({})}`, isCurrent: current === 'editor' },
        { label: 'Reference', to: `/queries/reference${search({})}`, isCurrent: current === 'reference' },
        { label: 'Saved', to: '/queries/saved', isCurrent: current === 'saved' },
        { label: 'Insights', to: '/queries/insights', isCurrent: current === 'insights' },
      ]}
    />
  )
}

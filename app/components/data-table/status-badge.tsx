/** A status's colour palette; statuses the cluster adds later show in gray. */
const STATUS_COLORS: Record<string, string> = {
  ready: 'gray',
  running: 'blue',
  pending: 'orange',
  done: 'green',
  failed: 'red',
  canceled: 'yellow',
  unknown: 'gray',
}

/**
 * The badges' look, set once on a container (DataTable's `css`, a panel): a Chakra component per
 * badge costs a style computation each on the server, and a list has one per row.
 */
export const statusBadgeCss = {
  '& [data-status]': {
    display: 'inline-block',
    px: '1.5',
    rounded: 'sm',
    fontSize: 'xs',
    fontWeight: 'medium',
    bg: 'gray.subtle',
    color: 'gray.fg',
  },
  // After the base rule: same specificity, so the later colour wins.
  ...Object.fromEntries(
    Object.entries(STATUS_COLORS).map(([status, color]) => [
      `& [data-status=${status}]`,
      { bg: `${color}.subtle`, color: `${color}.fg` },
    ]),
  ),
} as const

/** A status as a small coloured label; its container carries `statusBadgeCss`. */
export function StatusBadge({ status, children }: { status: string; children?: string }) {
  return <span data-status={status}>{children ?? status}</span>
}

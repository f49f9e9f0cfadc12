import { useRouteLoaderData } from '@remix-run/react'
import type { Timezone } from '~/utils/timezone'

/** The signed-in user's timezone preference (from the console layout's data); Local outside it. */
export function useTimezone(): Timezone {
  const data = useRouteLoaderData<{ timezone?: Timezone }>('routes/_console+/_layout')
  return data?.timezone ?? 'Local'
}

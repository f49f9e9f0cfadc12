import { useRouteLoaderData } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { browserZone, displayZone, type Timezone } from '~/utils/timezone'

type ShellZones = { timezone?: Timezone; localZone?: string | null }

/** The signed-in user's timezone preference (from the console layout's data); Local outside it. */
export function useTimezone(): Timezone {
  return useRouteLoaderData<ShellZones>('routes/_console+/_layout')?.timezone ?? 'Local'
}

/** The zone times are shown in now (see `displayZone`): the same on the server and in the first render. */
export function useDisplayZone(): string {
  const data = useRouteLoaderData<ShellZones>('routes/_console+/_layout')
  const isHydrated = useHydrated()
  return displayZone(data?.timezone ?? 'Local', data?.localZone, isHydrated ? browserZone() : undefined)
}

import type { ClusterApi } from '~/api/client.server'
import { listDictionaries, type Dictionary } from '~/api/dictionaries.server'

/** The dictionaries of a project that read `name`, as `{uuid, name}`; throws ClusterError. */
export async function dictionariesUsing(
  api: ClusterApi,
  projectId: string,
  name: string,
): Promise<{ uuid: string; name: string }[]> {
  return usersOf(await listDictionaries(api, projectId), name)
}

/** Of `dictionaries`, those whose file is `name`. */
export function usersOf(dictionaries: Dictionary[], name: string): { uuid: string; name: string }[] {
  return dictionaries
    .filter((dictionary) => dictionary.settings?.filename === name)
    .map((dictionary) => ({ uuid: dictionary.uuid, name: dictionary.name }))
}

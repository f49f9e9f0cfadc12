import { Text } from '~/components/ui/box'
import { Button } from '~/components/ui/button'
import { Form, useLocation, useNavigation } from '@remix-run/react'
import { useHiddenCreationPaths } from './create-link'

/** Where the sample is loaded: the tables list's action (intent `load-sample`, __load-sample.server.ts). */
export const LOAD_SAMPLE_ACTION = '/data/tables?index'

/**
 * An empty state's second action, "or" and a plain POST form whose button loads the sample (project
 * `sample`, table `logs`, a transform and a day of log rows) and lands on the new table. Shown only
 * to a user who may create tables and transforms; works without scripts.
 */
export function LoadSampleForm() {
  const hidden = useHiddenCreationPaths()
  const location = useLocation()
  const navigation = useNavigation()
  if (hidden.includes('/data/new-table') || hidden.includes('/data/new-transform')) return null
  const isLoading = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'load-sample'
  return (
    <>
      <Text as="span">or</Text>
      <Form method="post" action={LOAD_SAMPLE_ACTION} style={{ display: 'inline' }}>
        <input type="hidden" name="intent" value="load-sample" />
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <Button type="submit" size="sm" variant="outline" loading={isLoading} loadingText="Loading the sample…">
          Load the sample
        </Button>
      </Form>
    </>
  )
}

import { GuardedLink } from '~/components/layout/denied'
import { whyNotEach } from '~/api/access.server'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Code } from '~/components/ui/code'
import { Input } from '~/components/ui/input'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { deleteDictionary, dictionarySqlName, getDictionary } from '~/api/dictionaries.server'
import { loadFromCluster } from '~/api/policies.server'
import { getProject } from '~/api/projects.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { DictionaryEditor } from './__dictionary-editor'
import { getZodConstraint } from '@conform-to/zod/v4'
import { DictionaryFormSchema } from '~/schemas/dictionary'
import { dictionaryEditValues, loadDictionaryChoices, updateDictionaryAction } from './__dictionary-editor.server'
import { lookUpDictionary } from './__dictionary-lookup.server'
import { dictionaryUrl } from './__dictionary-url'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'dictionary' }

const DELETE_INTENT = 'delete-dictionary'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const projectId = params.projectId!
  const [project, dictionary, choices] = await loadFromCluster(() =>
    Promise.all([
      getProject(api, projectId),
      getDictionary(api, projectId, params.dictionaryId!),
      loadDictionaryChoices(api, projectId),
    ]),
  )
  const [lookup, denied] = await Promise.all([
    loadFromCluster(() => lookUpDictionary(api, project.name, dictionary, url)),
    whyNotEach(api, { change: 'change_dictionary', remove: 'delete_dictionary' }, { project }),
  ])
  return {
    denied,
    project: { uuid: project.uuid, name: project.name },
    dictionary: {
      uuid: dictionary.uuid,
      name: dictionary.name,
      description: dictionary.description ?? '',
      sqlName: dictionarySqlName(project.name, dictionary.name),
    },
    values: dictionaryEditValues(project.uuid, dictionary),
    files: choices.files,
    lookup,
    isConfirmingDelete: url.searchParams.get('delete') === dictionary.uuid,
    constraint: getZodConstraint(DictionaryFormSchema),
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === DELETE_INTENT) {
    const dictionary = await loadFromCluster(() => getDictionary(api, params.projectId!, params.dictionaryId!))
    await loadFromCluster(() => deleteDictionary(api, params.projectId!, params.dictionaryId!))
    return redirectWithToast('/data/dictionaries', { title: `Dictionary ${dictionary.name} deleted`, type: 'success' })
  }
  if (intent !== 'save') throw data({ message: 'Unknown action' }, { status: 400 })
  return updateDictionaryAction(api, params.projectId!, params.dictionaryId!, formData)
}

export default function EditDictionaryRoute() {
  const { project, dictionary, values, files, lookup, isConfirmingDelete, denied, constraint } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const pageUrl = dictionaryUrl(project.uuid, dictionary.uuid)
  return (
    <Stack gap="6" maxW="3xl">
      <PageHeader
        eyebrow={`Project ${project.name}`}
        title={`Dictionary ${dictionary.name}`}
        description={dictionary.description || undefined}
        mb="0"
        actions={
          <>
            <Button asChild size="sm" variant="outline">
              <Link to={`/queries?sql=${encodeURIComponent(lookup.sql)}`}>Open in Query</Link>
            </Button>
            {isConfirmingDelete ? null : (
              <GuardedLink to={`${pageUrl}?delete=${dictionary.uuid}`} reason={denied.remove} colorPalette="red">
                Delete dictionary…
              </GuardedLink>
            )}
          </>
        }
      />
      {isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-dictionary"
          title={`Delete dictionary ${dictionary.name}?`}
          intent={DELETE_INTENT}
          confirmLabel="Delete dictionary"
          deniedReason={denied.remove}
        >
          Queries that call dictGet('{dictionary.sqlName}', …) will fail once it is gone. Its file stays. This cannot be
          undone.
        </ConfirmPanel>
      ) : null}

      <SectionCard id="lookup" title="Lookup">
        <Form method="get" action={`${pageUrl}#lookup-heading`}>
          <Stack gap="3">
            <Text fontSize="sm">
              Runs <Code data-testid="lookup-sql">{lookup.sql}</Code> on the cluster.
            </Text>
            <HStack gap="3" alignItems="flex-end" flexWrap="wrap">
              {lookup.keys.map((key, index) => (
                <Stack gap="1" key={key.column}>
                  <chakra.label htmlFor={`lookup-k${index}`} fontSize="sm" fontWeight="medium">
                    Key {key.column} ({key.type})
                  </chakra.label>
                  <Input
                    id={`lookup-k${index}`}
                    name={`k${index}`}
                    defaultValue={key.value}
                    key={key.value}
                    size="sm"
                    maxW="xs"
                    bg="bg"
                    autoComplete="off"
                  />
                </Stack>
              ))}
              <Button type="submit" size="sm" variant="outline">
                Look up
              </Button>
            </HStack>
            {lookup.status === 'done' ? (
              <Box
                as="dl"
                role="status"
                aria-label="Lookup answer"
                fontSize="sm"
                display="grid"
                gridTemplateColumns="max-content 1fr"
                columnGap="4"
                rowGap="1"
              >
                {lookup.values.map((entry) => (
                  <Box key={entry.attribute} display="contents">
                    <chakra.dt color="fg.muted">{entry.attribute}</chakra.dt>
                    <chakra.dd m="0">
                      <Code>{entry.value}</Code>
                    </chakra.dd>
                  </Box>
                ))}
              </Box>
            ) : null}
            {lookup.status === 'empty' ? (
              <Text fontSize="sm">The dictionary holds no rows yet: its file is empty or was not loaded.</Text>
            ) : null}
            {lookup.status === 'failed' ? (
              <InlineAlert title="The engine refused the lookup">{lookup.error}</InlineAlert>
            ) : null}
          </Stack>
        </Form>
      </SectionCard>

      <DictionaryEditor
        constraint={constraint}
        deniedReason={denied.change}
        projects={[project]}
        files={files}
        fixedProject={project}
        defaultValue={values}
        lastResult={actionData?.result}
        submitLabel="Save dictionary"
        cancelTo="/data/dictionaries"
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded ? `Dictionary ${loaded.dictionary.name}` : 'Dictionary'} · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({ title: 'The dictionary could not be loaded' })

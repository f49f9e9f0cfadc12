import { getZodConstraint } from '@conform-to/zod/v4'
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
import { deleteFunction, getFunction } from '~/api/functions.server'
import { loadFromCluster } from '~/api/policies.server'
import { getProject } from '~/api/projects.server'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import { SectionCard } from '~/components/layout/section-card'
import { ARGUMENT_TYPES } from '~/schemas/function-values'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { FunctionEditor } from './__function-editor'
import { functionEditValues, updateFunctionAction } from './__function-editor.server'
import { tryFunction } from './__function-try.server'
import { functionUrl } from './__function-url'
import { FormSelect } from '~/components/forms/form-select'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { FunctionFormSchema } from '~/schemas/function'

export const handle: RouteHandle = { docsTopic: 'function' }

const DELETE_INTENT = 'delete-function'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const [project, fn] = await loadFromCluster(() =>
    Promise.all([getProject(api, params.projectId!), getFunction(api, params.projectId!, params.functionId!)]),
  )
  const current = { name: fn.name, sql: fn.sql ?? '' }
  const [tryOutcome, denied] = await Promise.all([
    loadFromCluster(() => tryFunction(api, current, url)),
    whyNotEach(api, { change: 'change_function', remove: 'delete_function' }, { project }),
  ])
  return {
    denied,
    project: { uuid: project.uuid, name: project.name },
    fn: { uuid: fn.uuid ?? params.functionId!, name: fn.name, sql: fn.sql ?? '', description: fn.description ?? '' },
    values: functionEditValues(project.uuid, fn),
    constraint: getZodConstraint(FunctionFormSchema),
    tryOutcome,
    isConfirmingDelete: url.searchParams.get('delete') === (fn.uuid ?? params.functionId),
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === DELETE_INTENT) {
    const fn = await loadFromCluster(() => getFunction(api, params.projectId!, params.functionId!))
    await loadFromCluster(() => deleteFunction(api, params.projectId!, params.functionId!))
    return redirectWithToast('/data/functions', { title: `Function ${fn.name} deleted`, type: 'success' })
  }
  if (intent !== 'save') throw data({ message: 'Unknown action' }, { status: 400 })
  return updateFunctionAction(api, params.projectId!, params.functionId!, formData)
}

export default function EditFunctionRoute() {
  const { project, fn, values, tryOutcome, isConfirmingDelete, denied, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const pageUrl = functionUrl(project.uuid, fn.uuid)
  return (
    <Stack gap="6" maxW="3xl">
      <PageHeader
        eyebrow={`Project ${project.name}`}
        title={`Function ${fn.name}`}
        description={fn.description || undefined}
        mb="0"
        actions={
          <>
            <Button asChild size="sm" variant="outline">
              <Link to={`/queries?sql=${encodeURIComponent(`${tryOutcome.sql}`)}`}>Open in Query</Link>
            </Button>
            {isConfirmingDelete ? null : (
              <GuardedLink to={`${pageUrl}?delete=${fn.uuid}`} reason={denied.remove} colorPalette="red">
                Delete function…
              </GuardedLink>
            )}
          </>
        }
      />
      {isConfirmingDelete ? (
        <ConfirmPanel
          id="delete-function"
          title={`Delete function ${fn.name}?`}
          intent={DELETE_INTENT}
          confirmLabel="Delete function"
          deniedReason={denied.remove}
        >
          Queries that call {fn.name} will fail once it is gone. This cannot be undone.
        </ConfirmPanel>
      ) : null}

      <SectionCard id="try-it" title="Try it">
        <Form method="get" action={`${pageUrl}#try-it-heading`}>
          <input type="hidden" name="try" value="1" />
          <Stack gap="3">
            <Text fontSize="sm">
              Runs <Code>{tryOutcome.sql}</Code> on the cluster.
            </Text>
            {tryOutcome.arguments.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                This expression takes no arguments.
              </Text>
            ) : null}
            {tryOutcome.arguments.map((arg, index) => (
              <HStack key={arg.parameter} gap="3" alignItems="flex-end" flexWrap="wrap">
                <Stack gap="1">
                  <chakra.label htmlFor={`try-a${index}`} fontSize="sm" fontWeight="medium">
                    Argument {arg.parameter}
                  </chakra.label>
                  <Input
                    id={`try-a${index}`}
                    name={`a${index}`}
                    defaultValue={arg.value}
                    size="sm"
                    maxW="xs"
                    bg="bg"
                    autoComplete="off"
                    aria-invalid={arg.error ? true : undefined}
                    aria-describedby={arg.error ? `try-a${index}-error` : undefined}
                  />
                </Stack>
                <Stack gap="1">
                  <chakra.label htmlFor={`try-t${index}`} fontSize="sm" fontWeight="medium">
                    Type of {arg.parameter}
                  </chakra.label>
                  <FormSelect size="sm" id={`try-t${index}`} name={`t${index}`} defaultValue={arg.type}>
                    {ARGUMENT_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </FormSelect>
                </Stack>
                {arg.error ? (
                  <Text id={`try-a${index}-error`} color="fg.error" fontSize="sm">
                    {arg.error}
                  </Text>
                ) : null}
              </HStack>
            ))}
            <Box>
              <Button type="submit" size="sm" variant="outline">
                Run
              </Button>
            </Box>
            {tryOutcome.status === 'done' ? (
              <Box role="status" fontSize="sm">
                Result: <Code data-testid="try-result">{tryOutcome.value}</Code>{' '}
                <chakra.span color="fg.muted">
                  ({tryOutcome.type}, {tryOutcome.elapsedMs} ms)
                </chakra.span>
              </Box>
            ) : null}
            {tryOutcome.status === 'failed' ? (
              <InlineAlert title="The engine refused it">{tryOutcome.error}</InlineAlert>
            ) : null}
          </Stack>
        </Form>
      </SectionCard>

      <FunctionEditor
        deniedReason={denied.change}
        projects={[project]}
        fixedProject={project}
        defaultValue={values}
        constraint={constraint}
        lastResult={actionData?.result}
        submitLabel="Save function"
        cancelTo="/data/functions"
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Function ${data.fn.name}` : 'Function'} · Cluster Console` },
]

export const ErrorBoundary = routeErrorBoundary({ title: 'The function could not be loaded' })

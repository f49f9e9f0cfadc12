import { Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { Link as ChakraLink } from '~/components/ui/link'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { settle } from '~/api/policies.server'
import { getVersion } from '~/api/version.server'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { RouteErrorBoundary } from '~/components/layout/route-error'
import { SectionCard } from '~/components/layout/section-card'
import { CONSOLE_VERSION } from '~/utils/console-version.server'
import { getEnv } from '~/utils/env.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const env = getEnv()
  // This page is where to turn when something fails: it shows even when the cluster cannot say its version.
  const clusterVersion = await settle(() => getVersion(api))
  return {
    supportEmail: env.SUPPORT_EMAIL,
    supportUrl: env.SUPPORT_URL,
    docsUrl: env.DOCS_URL,
    consoleVersion: CONSOLE_VERSION,
    clusterVersion: clusterVersion.value || 'unknown',
    clusterVersionError: clusterVersion.error,
  }
}

export default function SupportRoute() {
  const data = useLoaderData<typeof loader>()
  // A mail that already says what support asks first: which versions.
  const mailBody = `\n\nConsole version: ${data.consoleVersion}\nCluster version: ${data.clusterVersion}\n`
  const mailto = `mailto:${data.supportEmail}?subject=${encodeURIComponent('Cluster Console support')}&body=${encodeURIComponent(mailBody)}`
  return (
    <Stack gap="6" maxW="3xl">
      <PageHeader title="Support" description="How to reach us, and the versions to tell us about." mb="0" />

      <SectionCard id="contact" title="Contact support">
        <Text mb="2">
          Write to{' '}
          <ChakraLink href={mailto} color="link">
            {data.supportEmail}
          </ChakraLink>{' '}
          and say what you did, what you expected and what the console showed. The versions below are filled in for you.
        </Text>
        <Text>
          Or open a request on{' '}
          <ChakraLink href={data.supportUrl} target="_blank" rel="noopener noreferrer" color="link">
            the support site
          </ChakraLink>{' '}
          (opens in a new window).
        </Text>
      </SectionCard>

      <SectionCard id="versions" title="Versions">
        <DetailList
          label="Versions"
          entries={[
            ['Console version', <code key="console">{data.consoleVersion}</code>],
            [
              'Cluster version',
              <>
                <code>{data.clusterVersion}</code>
                {data.clusterVersionError ? (
                  <Text as="span" display="block" color="fg.error">
                    {data.clusterVersionError}
                  </Text>
                ) : null}
              </>,
            ],
          ]}
        />
      </SectionCard>

      <SectionCard id="docs" title="Documentation">
        <Text>
          Guides and the API reference are in{' '}
          <ChakraLink href={data.docsUrl} target="_blank" rel="noopener noreferrer" color="link">
            the documentation
          </ChakraLink>{' '}
          (opens in a new window). Most pages also link to their own topic from the header (Docs, API).
        </Text>
      </SectionCard>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Support · Cluster Console' }]
export const ErrorBoundary = RouteErrorBoundary

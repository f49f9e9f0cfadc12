import { Box, Text } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import { Link as ChakraLink } from '~/components/ui/link'
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'

/**
 * The centred card the public pages (login, reset, verify) sit in: the product name, the page's h1,
 * an optional line on what to do (`intro`), the page's form (`children`) and a link below it.
 */
export function AuthCard({
  title,
  intro,
  footerLink,
  children,
}: {
  title: string
  intro?: ReactNode
  footerLink?: { to: string; label: string }
  children: ReactNode
}) {
  return (
    <Box as="main" minH="100vh" display="flex" alignItems="center" justifyContent="center" p="4">
      <Box bg="bg" w="full" maxW="sm" p="8" rounded="lg" shadow="md">
        <Box fontWeight="bold" color="link" mb="6" letterSpacing="wide">
          Cluster Console
        </Box>
        <Heading as="h1" size="lg" mb="6">
          {title}
        </Heading>
        {intro ? (
          <Text mb="4" color="fg.muted" fontSize="sm">
            {intro}
          </Text>
        ) : null}
        {children}
        {footerLink ? (
          <Box mt="4" fontSize="sm" textAlign="center">
            <ChakraLink asChild color="link">
              <Link to={footerLink.to}>{footerLink.label}</Link>
            </ChakraLink>
          </Box>
        ) : null}
      </Box>
    </Box>
  )
}

import { Box, Heading } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** The centred card the public pages (login, reset, verify) sit in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="main" minH="100vh" display="flex" alignItems="center" justifyContent="center" p="4">
      <Box bg="bg" w="full" maxW="sm" p="8" rounded="lg" shadow="md">
        <Box fontWeight="bold" color="blue.600" mb="6" letterSpacing="wide">
          Cluster Console
        </Box>
        <Heading as="h1" size="lg" mb="6">
          {title}
        </Heading>
        {children}
      </Box>
    </Box>
  )
}

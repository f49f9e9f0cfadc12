import { Box, chakra } from '@chakra-ui/react'
import { Link } from '@remix-run/react'
import type { Crumb } from '~/utils/breadcrumb'

/** The header's breadcrumb: a navigation landmark whose last item is the current page. */
export function BreadcrumbNav({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <Box as="ol" display="flex" flexWrap="wrap" alignItems="center" gap="1.5" fontSize="sm" listStyleType="none" m="0" p="0">
        {crumbs.map((crumb, index) => {
          const isLast = index === crumbs.length - 1
          return (
            <Box as="li" key={`${index}-${crumb.label}`} display="flex" alignItems="center" gap="1.5">
              {index > 0 ? (
                <Box as="span" aria-hidden="true" color="fg.subtle">
                  /
                </Box>
              ) : null}
              {isLast ? (
                <Box as="span" aria-current="page" fontWeight="semibold">
                  {crumb.label}
                </Box>
              ) : crumb.href ? (
                <chakra.a asChild color="link" _hover={{ textDecoration: 'underline' }}>
                  <Link to={crumb.href}>{crumb.label}</Link>
                </chakra.a>
              ) : (
                <Box as="span" color="fg.muted">
                  {crumb.label}
                </Box>
              )}
            </Box>
          )
        })}
      </Box>
    </nav>
  )
}

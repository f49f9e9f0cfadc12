import { Link } from '@remix-run/react'
import type { Crumb } from '~/utils/breadcrumb'

/** The header's breadcrumb: a navigation landmark whose last item is the current page (shell-css.ts classes). */
export function BreadcrumbNav({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="cc-crumbs">
        {crumbs.map((crumb, index) => {
          const isLast = index === crumbs.length - 1
          return (
            <li key={`${index}-${crumb.label}`} className="cc-crumb">
              {index > 0 ? (
                <span aria-hidden="true" className="cc-crumb-separator">
                  /
                </span>
              ) : null}
              {isLast ? (
                <span aria-current="page" className="cc-crumb-current">
                  {crumb.label}
                </span>
              ) : crumb.href ? (
                <Link to={crumb.href} className="cc-link">
                  {crumb.label}
                </Link>
              ) : (
                <span className="cc-crumb-muted">{crumb.label}</span>
              )}
            </li>
          )
        })}
      </ol>
    </nav>
  )
}

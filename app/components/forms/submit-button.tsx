import { type ButtonProps } from '@chakra-ui/react'
import { Button } from '~/components/ui/button'
import { useNavigation } from '@remix-run/react'

/**
 * A submit button that shows a spinner while its form submits: any submission, or with `name` the
 * one that sent this button's value; `isPending` decides instead where the form says which it is
 * (a hidden `intent`, a fetcher). Never `disabled` in server HTML (house style): without scripts it
 * must stay usable. While loading it keeps its label beside the spinner (a button with only a
 * spinner has no name for a screen reader).
 */
export function SubmitButton({
  children,
  name,
  value,
  formAction,
  isPending,
  ...props
}: ButtonProps & { name?: string; value?: string; formAction?: string; isPending?: boolean }) {
  const navigation = useNavigation()
  const isSubmitting =
    isPending ??
    (navigation.state === 'submitting' &&
      (name === undefined || navigation.formData?.get(name) === value) &&
      (formAction === undefined || navigation.formAction === formAction))
  return (
    <Button
      type="submit"
      name={name}
      value={value}
      formAction={formAction}
      loading={isSubmitting}
      loadingText={children}
      colorPalette="blue"
      {...props}
    >
      {children}
    </Button>
  )
}

import { Button, type ButtonProps } from '@chakra-ui/react'
import { useNavigation } from '@remix-run/react'

/**
 * A submit button that shows a spinner while its form submits. Never `disabled` in server HTML
 * (house style): without scripts it must stay usable.
 */
export function SubmitButton({
  children,
  name,
  value,
  formAction,
  ...props
}: ButtonProps & { name?: string; value?: string; formAction?: string }) {
  const navigation = useNavigation()
  const isSubmitting =
    navigation.state === 'submitting' &&
    (name === undefined || navigation.formData?.get(name) === value) &&
    (formAction === undefined || navigation.formAction === formAction)
  return (
    <Button type="submit" name={name} value={value} formAction={formAction} loading={isSubmitting} colorPalette="blue" {...props}>
      {children}
    </Button>
  )
}

/** The messages under a field or form; `id` is what the input's aria-describedby points to (form-css.ts classes). */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const messages = (errors ?? []).filter(Boolean)
  return (
    <div id={id} className="cc-errors" data-shown={messages.length ? '' : undefined}>
      {messages.length ? (
        <ul className="cc-errors-list">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

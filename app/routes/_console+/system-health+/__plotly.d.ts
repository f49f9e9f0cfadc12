// plotly.js-basic-dist ships no types; this is the little of its API the chart uses.
declare module 'plotly.js-basic-dist' {
  const Plotly: {
    react(
      element: HTMLElement,
      data: unknown[],
      layout?: Record<string, unknown>,
      config?: Record<string, unknown>,
    ): Promise<unknown>
    purge(element: HTMLElement): void
  }
  export default Plotly
}

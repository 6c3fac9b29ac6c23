/** A promise the test opens when it wants: a tool or a model turn waits on it, so "mid-run" is a state. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

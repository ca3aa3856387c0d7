// A bounded wait for work that settles asynchronously (a background load, a socket closing on the
// other side): polls, and throws, failing the test, once `ms` of real time have passed.
export async function eventually(
  what: string,
  pred: () => boolean | Promise<boolean>,
  ms = 5000,
): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

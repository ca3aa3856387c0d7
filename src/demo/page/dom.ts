/// <reference lib="dom" />
// A few DOM helpers for the demo page: element lookup that fails loudly, and element building
// without innerHTML (every text the page shows is set as text, so nothing from an answer is parsed).

/** The element with that id; its absence is a mismatch between this script and the page. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (!found) throw new Error(`The demo page has no #${id}`)
  return found as T
}

type Child = Node | string | null | undefined | false

/** An element with attributes (class, href...) and children; falsy children are skipped. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  for (const child of children) if (child) node.append(child)
  return node
}

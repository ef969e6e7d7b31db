/**
 * Where a rule's documentation opens (no `vscode` import, so it is tested as is). The server links
 * each diagnostic to the rule's page: the markdown file shipped in the extension (`file:`), or the
 * repository's page on the web. A `file:` page opens in a VS Code tab, rendered; handed to the
 * operating system it opened in another program, or, in code-server and remote windows, was
 * looked for on the user's own machine, where it is not.
 */
export function docsOpenIn(href: string): "preview" | "browser" {
  return /^file:/i.test(href) ? "preview" : "browser";
}

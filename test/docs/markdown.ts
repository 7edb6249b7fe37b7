/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown document's headings (outside code blocks). */
export function headingAnchors(markdown: string): Set<string> {
  let inCode = false;
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && /^#{1,6} /.test(line)) anchors.add(anchorOf(line.replace(/^#+ /, '')));
  }
  return anchors;
}

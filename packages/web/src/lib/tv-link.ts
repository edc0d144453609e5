// The TV display's link (issue 20): a spectator link with view=tv. No imports, so the app shell can read it.

/** The TV variant of a spectator link: the same token, the display layout. */
export function tvLink(spectatorLink: string): string {
  return spectatorLink.includes('view=tv') ? spectatorLink : `${spectatorLink}${spectatorLink.includes('#') ? '&' : '#'}view=tv`;
}

/** Whether the URL fragment asks for the TV layout. */
export function wantsTv(hash: string): boolean {
  return new URLSearchParams(hash.replace(/^#/, '')).get('view') === 'tv';
}

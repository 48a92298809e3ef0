// Shown while the server cannot be reached; api.ts probes it and removes the banner (and reloads
// the page's data) as soon as it answers again.
export function Banner() {
  return (
    <div class="banner" role="alert">
      The server cannot be reached. Retrying every few seconds; this page reloads by itself when it is back.
    </div>
  );
}

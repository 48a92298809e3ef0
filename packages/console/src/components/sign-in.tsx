// The key, asked once per tab. A key the API refused (wrong, revoked, expired) comes back here
// with the problem's text.
import { useState } from "preact/hooks";
import { signIn, signInMessage } from "../api.ts";
import { useStore } from "../store.ts";

export function SignIn(props: { hint?: string | undefined }) {
  const message = useStore(signInMessage);
  const [value, setValue] = useState(props.hint ?? "");
  return (
    <main class="sign-in" id="main">
      <h1>OISR console</h1>
      <form
        class="stacked"
        onSubmit={(event) => {
          event.preventDefault();
          if (value.trim()) signIn(value.trim());
        }}
      >
        {message && (
          <p class="problem" role="alert">
            {message}
          </p>
        )}
        <label>
          API key
          <input
            type="password"
            name="key"
            autocomplete="off"
            required
            placeholder="oisr_…"
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </label>
        <p class="muted">
          Kept in this tab only (sessionStorage) and sent only to this server, as the API's bearer token.
        </p>
        <button type="submit">Open the console</button>
      </form>
    </main>
  );
}

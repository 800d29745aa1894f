/// Signing in: with a password, or with a one-time link printed by `storegate user add|link`.
enum SignInTemplate {
    static let text = """
        <h1>Sign in</h1>
        <form method="post" action="/console/sign-in" class="card narrow">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="tenant">Tenant</label>
          <input id="tenant" name="tenant" value="{{tenant}}" required maxlength="40" autocomplete="organization">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" value="{{email}}" required maxlength="254" autocomplete="username">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" required maxlength="72" autocomplete="current-password">
          <button type="submit" id="sign-in">Sign in</button>
        </form>
        <p class="hint">No password yet? Ask an admin for a sign-in link (<code>storegate user link</code>).</p>
        """
}

enum LinkTemplate {
    static let text = """
        <h1>Sign in with a link</h1>
        <form method="post" action="/console/link" class="card narrow">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <input type="hidden" name="token" value="{{token}}">
          <p>This link signs you in once.</p>
          <button type="submit" id="use-link">Sign in</button>
        </form>
        """
}

enum MessageTemplate {
    static let text = """
        <h1>{{heading}}</h1>
        <p>{{message}}</p>
        <p><a href="{{back}}">{{backLabel}}</a></p>
        """
}
